//! Messages of the deeper views: the variance proof, the attention variants, head patterns,
//! the graph view and the cost of attention.

super::catalogue! {
    /// A message of the deeper views.
    pub enum ViewMsg {
        NavLabel => ("Views", "视图"),
        NavLesson => ("Lesson", "课程"),
        NavVariance => ("Why √d_k", "为什么除以 √d_k"),
        NavVariants => ("Self · causal · cross", "自注意力 · 因果 · 交叉"),
        NavPatterns => ("Head patterns", "注意力头模式"),
        NavGraph => ("As a graph", "图视角"),
        NavComplexity => ("The O(n²) wall", "O(n²) 之墙"),
        NavModel => ("Trained model", "训练好的模型"),
        NavCoref => ("it → animal?", "it → animal？"),

        VarTitle => ("Why divide by √d_k: the variance experiment", "为什么除以 √d_k：方差实验"),
        VarIntro => (
            "Draw many pairs of random vectors q and k whose entries are independent, with mean 0 and variance 1, and look at their dot products. Their spread is not fixed: it grows with the number of terms.",
            "随机抽取许多对向量 q 和 k，它们的分量相互独立、均值为 0、方差为 1，再看它们的点积。点积的离散程度并不固定，而是随项数增加而变大。",
        ),
        VarDk => ("Vector length d_k", "向量维度 d_k"),
        VarSamples => ("Pairs sampled", "抽样对数"),
        VarReadout => ("Empirical variance of q·k", "q·k 的经验方差"),
        VarPredicted => ("predicted: d_k = {dk}", "理论值：d_k = {dk}"),
        VarHistRaw => ("q·k over {n} pairs (curve: normal with variance d_k)", "{n} 对样本的 q·k（曲线：方差为 d_k 的正态分布）"),
        VarHistScaled => ("q·k / √d_k over the same pairs (curve: variance 1)", "同样样本的 q·k / √d_k（曲线：方差为 1）"),
        VarCurve => (
            "Empirical variance against d_k (points) on the line Var = d_k, both axes log₂",
            "经验方差随 d_k 的变化（点）与直线 Var = d_k，两轴均为 log₂",
        ),
        VarDerivation => ("The derivation, step by step", "逐步推导"),
        VarStep1 => ("A dot product is a sum of d_k products.", "点积是 d_k 个乘积之和。"),
        VarStep2 => (
            "The d_k products are independent of each other, so their variances add up.",
            "这 d_k 个乘积彼此独立，所以它们的方差可以直接相加。",
        ),
        VarStep3 => (
            "For independent q_i and k_i with mean 0, the variance of their product is the product of their variances: 1 · 1.",
            "对于均值为 0 的独立变量 q_i 和 k_i，乘积的方差等于二者方差之积：1 · 1。",
        ),
        VarStep4 => (
            "Adding d_k ones gives d_k. Dividing q·k by √d_k divides the variance by d_k, which brings it back to 1.",
            "d_k 个 1 相加得到 d_k。把 q·k 除以 √d_k，方差就除以 d_k，回到 1。",
        ),
        VarWhy => (
            "So at d_k = 64 a typical score is about ±8, and ±24 (three standard deviations) is not rare. Fed to the softmax unscaled, gaps that large make one weight nearly 1 and the rest nearly 0, and almost no gradient gets back.",
            "所以当 d_k = 64 时，典型的分数约为 ±8，±24（三个标准差）也不罕见。不缩放就送进 softmax，这么大的差距会让一个权重接近 1、其余接近 0，几乎没有梯度能传回去。",
        ),

        VariantsTitle => ("Self, causal and cross attention", "自注意力、因果注意力与交叉注意力"),
        VariantsIntro => (
            "The computation is the same in all three. What changes is where Q, K and V come from, and which query–key pairs are allowed.",
            "三者的计算完全相同。不同的是 Q、K、V 从哪里来，以及哪些查询–键对是被允许的。",
        ),
        SelfTitle => ("Self-attention", "自注意力"),
        SelfText => (
            "Q, K and V all come from the same sentence, and every token may look at every token, before or after it. Encoders such as BERT work this way.",
            "Q、K、V 都来自同一个句子，每个词元都可以看到所有词元，不论前后。BERT 这样的编码器就是这样工作的。",
        ),
        CausalTitle => ("Causal (masked) attention", "因果（掩码）注意力"),
        CausalText => (
            "The same sentence, but a mask M adds −∞ above the diagonal before the softmax, so token i sees only tokens 1 to i: no peeking at the future. This is what lets GPT-style decoders generate one token at a time.",
            "同一个句子，但掩码 M 在 softmax 之前给对角线以上的位置加上 −∞，于是第 i 个词元只能看到第 1 到第 i 个词元：不能偷看未来。正因如此，GPT 这类解码器才能一次生成一个词元。",
        ),
        MaskLegend => ("yellow: allowed (adds 0) · grey: blocked (adds −∞)", "黄色：允许（加 0）· 灰色：屏蔽（加 −∞）"),
        CrossTitle => ("Cross-attention", "交叉注意力"),
        CrossText => (
            "Queries come from one sentence, keys and values from another (the second sentence in the settings), so the matrix is n_q × n_kv and need not be square. A translation model's decoder uses it to look back at the source sentence.",
            "查询来自一个句子，键和值来自另一个句子（设置里的第二个句子），所以矩阵是 n_q × n_kv，不必是方阵。翻译模型的解码器就用它回看原文。",
        ),

        PatternsTitle => ("Head patterns, built by hand", "手工构造的注意力头模式"),
        PatternsIntro => (
            "Looking inside trained models, people keep finding the same kinds of heads. Here each kind is built from weights written down explicitly and run through the same attention code, so the pattern you see is computed, not drawn.",
            "研究训练好的模型时，人们反复发现几类相同的注意力头。这里每一类都由明确写出的权重构造，再经过同一套注意力计算，所以你看到的模式是算出来的，不是画出来的。",
        ),
        PatternsWidth => (
            "These heads use d_model = 64 and no ÷√d_k (the weights carry their own scale), whatever the settings say.",
            "这些注意力头固定使用 d_model = 64，且不除以 √d_k（权重自带尺度），与设置无关。",
        ),
        PatPrev => ("Previous token", "前一个词元"),
        PatPrevText => (
            "Reads only the positional encoding. W_Q turns every sine–cosine pair back by one position, so the query of token i equals the positional code of position i−1, and the key that matches it best is the token just before.",
            "只读取位置编码。W_Q 把每一对正弦–余弦向回转一个位置，于是第 i 个词元的查询正好等于第 i−1 个位置的编码，与它最匹配的键就是紧挨在前面的那个词元。",
        ),
        PatLocal => ("Local window", "局部窗口"),
        PatLocalText => (
            "Queries and keys keep only the middle frequencies of the positional encoding. Their dot product is largest at the same position and falls off smoothly with distance, so the weight stays in a band around the diagonal, much like an n-gram.",
            "查询和键只保留位置编码中的中等频率。它们的点积在同一位置最大，并随距离平滑减小，所以权重集中在对角线附近的一条带上，很像 n-gram。",
        ),
        PatBroadcast => ("Broadcast", "广播"),
        PatBroadcastText => (
            "W_K is all zeros, so every key is the same and every score is 0. The softmax of equal scores is uniform: each token takes the plain average over all tokens, like global average pooling.",
            "W_K 全为 0，所有的键都一样，所有分数都是 0。相等分数的 softmax 是均匀分布：每个词元对所有词元取简单平均，类似全局平均池化。",
        ),
        PatSparse => ("Sparse", "稀疏"),
        PatSparseText => (
            "Every query asks the same question, read from the slowest positional components, which hardly change. Each key answers with how much its embedding overlaps the anchor token's, so almost all the weight lands on the anchor wherever it occurs.",
            "每个查询都问同一个问题（读取位置编码中几乎不变的最慢分量）。每个键回答的是它的嵌入与锚点词元嵌入的重合程度，所以几乎全部权重都落在锚点词元出现的位置上。",
        ),
        PatShowWeights => ("Show its W_Q and W_K", "查看它的 W_Q 和 W_K"),
        PatAnchor => ("Anchor token", "锚点词元"),

        GraphTitle => ("Attention as message passing on a graph", "图视角：注意力就是消息传递"),
        GraphIntro => (
            "Treat the tokens as the nodes of a complete graph. The weights A are its adjacency matrix, but unlike a fixed graph they are recomputed for every input, and every pair is connected. Each node then gathers the values of its neighbours weighted by A: that is A·V.",
            "把词元看作一个完全图的节点。权重 A 就是它的邻接矩阵；但与固定的图不同，它随每个输入重新计算，而且任意两点之间都有边。随后每个节点按 A 的权重收集邻居的值向量：这就是 A·V。",
        ),
        GraphEdges => (
            "Line thickness is the weight the selected token gives each token; messages flow from each key to the query. Click a node to select it.",
            "线的粗细表示选中的词元给每个词元的权重；消息从每个键流向查询。点击节点即可选中。",
        ),
        GraphGathers => ("{tok} gathers its new vector from:", "{tok} 从这些词元收集新的向量："),
        GraphAdjacency => ("Adjacency matrix A", "邻接矩阵 A"),
        GraphPicture => ("The tokens as a graph, edges weighted by attention", "词元构成的图，边的权重为注意力"),

        CxTitle => ("The O(n²) wall, FlashAttention and linear attention", "O(n²) 之墙、FlashAttention 与线性注意力"),
        CxIntro => (
            "Every query meets every key, so each head's score matrix has n² entries: a thousand tokens are a million pairs, and doubling the length quadruples the work and the memory.",
            "每个查询都要与每个键相遇，所以每个头的分数矩阵有 n² 个元素：一千个词元就是一百万对，长度翻倍，计算量和内存都变成四倍。",
        ),
        CxN => ("Sequence length n", "序列长度 n"),
        CxPairs => ("Query–key pairs per head (n²)", "每个头的查询–键对数（n²）"),
        CxMem16 => ("Score memory, fp16 (all heads, one layer)", "分数占用的内存，fp16（所有头，一层）"),
        CxMem32 => ("Score memory, fp32", "分数占用的内存，fp32"),
        CxFlops => ("Softmax attention: QKᵀ and A·V", "softmax 注意力：QKᵀ 与 A·V"),
        CxLinFlops => ("Linear attention", "线性注意力"),
        CxChart => ("Operations against n (log₂ axes): softmax grows like n², linear like n", "运算量随 n 的变化（log₂ 坐标）：softmax 按 n² 增长，线性注意力按 n 增长"),
        FlashTitle => ("FlashAttention: the same result, tile by tile", "FlashAttention：分块计算，结果不变"),
        FlashText => (
            "FlashAttention never stores the n × n matrix. It loads a tile of queries and a tile of keys into fast on-chip memory, computes their scores, and keeps for each query only a running maximum m and a running sum l of exponentials. When a new tile brings a larger maximum, everything summed so far is rescaled by exp(m_old − m_new). After the last tile, dividing by l gives exactly the softmax-weighted sum.",
            "FlashAttention 从不保存 n × n 矩阵。它把一块查询和一块键载入片上的高速内存，算出这一块的分数，每个查询只保留一个运行最大值 m 和一个指数的运行和 l。新的一块带来更大的最大值时，之前累加的结果都乘以 exp(m_old − m_new) 重新缩放。最后一块处理完后除以 l，得到的正是 softmax 加权和。",
        ),
        FlashTile => ("Tile size", "分块大小"),
        FlashStep => ("Step {i} of {n}: queries {r0}–{r1}, keys {c0}–{c1}", "第 {i} 步，共 {n} 步：查询 {r0}–{r1}，键 {c0}–{c1}"),
        FlashPlay => ("Play", "播放"),
        FlashPause => ("Pause", "暂停"),
        FlashError => ("Largest |tiled − full| difference in the output", "分块结果与完整计算的最大差 |tiled − full|"),
        FlashPeak => ("Scores held at once: {tile} instead of {full}", "同时保存的分数：{tile} 个，而不是 {full} 个"),
        FlashRows => ("Row", "行"),
        FlashScores => ("Scores computed so far (grey: not yet)", "已计算的分数（灰色：尚未计算）"),
        LinearTitle => ("Linear attention: a kernel instead of exp", "线性注意力：用核函数代替 exp"),
        LinearText => (
            "Replace exp(q·k) by φ(q)·φ(k) with φ(x) = elu(x) + 1, which is always positive. Then Σ_j φ(q_i)·φ(k_j) v_j = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ): the sum in brackets is computed once for all queries, so the cost grows like n instead of n². The price: the weights come out flatter than softmax's, as the maps below show for the same Q and K.",
            "用 φ(q)·φ(k) 代替 exp(q·k)，其中 φ(x) = elu(x) + 1 恒为正。于是 Σ_j φ(q_i)·φ(k_j) v_j = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ)：括号中的和对所有查询只需计算一次，开销随 n 而不是 n² 增长。代价是权重比 softmax 平坦，下面用同样的 Q 和 K 对比。",
        ),
        LinearWeights => ("Linear-attention weights", "线性注意力权重"),
        LinearError => ("Largest |O(n) way − direct way| in the output", "O(n) 算法与直接计算的最大差"),
    }
}
