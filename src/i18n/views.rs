//! Messages of the deeper views: the variance proof, the attention variants, head patterns,
//! the graph view and the cost of attention.

super::catalogue! {
    /// A message of the deeper views.
    pub enum ViewMsg {
        NavLabel => ("Views", "视图"),
        NavLesson => ("Lesson", "讲解"),
        NavSaturation => ("Saturation lab", "饱和实验"),
        NavVariance => ("Why √d_k", "为什么除以 √d_k"),
        NavVariants => ("Self · causal · cross", "自注意力 · 因果 · 交叉"),
        NavPatterns => ("Head patterns", "注意力头模式"),
        NavGraph => ("As a graph", "图视角"),
        NavComplexity => ("The O(n²) cost", "O(n²) 开销"),
        NavModel => ("Pretrained model", "预训练模型"),
        NavCoref => ("it → animal?", "“it” → “animal”？"),

        VarTitle => ("Why divide by √d_k: the variance experiment", "为什么除以 √d_k：方差实验"),
        VarIntro => (
            "Draw many pairs of random vectors q and k whose entries are independent, with mean 0 and variance 1, and look at their dot products. Their spread is not fixed: it grows with the number of terms.",
            "随机抽取许多对向量 q 和 k，它们的分量相互独立、均值为 0、方差为 1，再看它们的点积。点积的离散程度并不固定，而是随项数增加而变大。",
        ),
        VarDk => ("Vector length d_k", "向量维度 d_k"),
        VarSamples => ("Pairs sampled", "样本数"),
        VarReadout => ("Empirical variance of q·k", "q·k 的经验方差"),
        VarPredicted => ("predicted: d_k = {dk}", "理论值：d_k = {dk}"),
        VarHistRaw => ("q·k over {n} pairs (curve: the normal approximation, variance d_k)", "{n} 对样本的 q·k（曲线：正态近似，方差为 d_k）"),
        VarNormalApprox => (
            "The curves are normal distributions with the right variance. The shape is only approximately normal, by the central limit theorem, and only for larger d_k: at d_k = 1 a score is the product of two independent standard normal variables, far more peaked with heavier tails (kurtosis 9, against 3 for a normal). The variance, which is all the argument needs, is exactly d_k at every d_k.",
            "图中曲线是方差正确的正态分布。形状只是近似正态，依据是中心极限定理，而且只在 d_k 较大时成立：d_k = 1 时分数是两个独立标准正态随机变量的乘积，峰更尖、尾更重（峰度为 9，正态分布为 3）。推导只需要方差，而方差在任何 d_k 下都恰好等于 d_k。",
        ),
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
            "So at d_k = 64 a typical score is about ±8, and almost every score stays within about ±24 (three standard deviations; only about 0.3 % lie beyond). That is still far too wide for a softmax: within one row the top scores differ by several units, and a gap of 5 already makes one weight e⁵ ≈ 150 times the other. Fed to the softmax unscaled, such rows put nearly all their weight on one key, and almost no gradient gets back.",
            "所以当 d_k = 64 时，典型的分数约为 ±8，几乎所有分数都在 ±24（三个标准差）以内，超出的只有约 0.3 %。但这对 softmax 来说仍然太宽：同一行里最大的几个分数往往相差好几个单位，而相差 5 就已经让两个权重相差 e⁵ ≈ 150 倍。不缩放就送进 softmax，这样的行几乎把全部权重都给了一个键，几乎没有梯度能传回去。",
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
            "The same sentence, but a mask M adds −∞ above the diagonal before the softmax, so token i sees only tokens 1 to i: no peeking at the future. It is needed whenever several positions run in one pass: in training, where a GPT-style decoder learns from every position of a sentence at once, and when a model reads its prompt. The mask makes each position see exactly what it would see if the text were written left to right. Only a single new token, whose query meets the cached keys of the tokens before it, has nothing after it to hide, and needs no mask. Models that write this way, a token at a time, each conditioned on those before it, are called autoregressive; the decoder-only ones (GPT) have only the causal mask, while encoder-only ones (BERT, the pretrained models here) let every token see every other, and encoder–decoder models (the original Transformer) have both, with cross-attention between them.",
            "同一个句子，但掩码 M 在 softmax 之前给对角线以上的位置加上 −∞，于是第 i 个词元只能看到第 1 到第 i 个词元：不能偷看未来。凡是一次计算多个位置，都需要它：训练时，GPT 这类解码器一次就用句子的所有位置来学习；模型读入提示词时也是如此。掩码保证每个位置看到的，正好是文本从左到右写出时它能看到的内容。只有单独一个新词元，用它的查询去对照缓存中它之前各词元的键时，后面没有任何东西需要遮住，才不需要掩码。像这样一次写一个词元、每个词元都以前面的词元为条件的模型，叫作自回归（autoregressive）模型；仅解码器（decoder-only）模型（如 GPT）只用因果掩码，仅编码器（encoder-only）模型（如 BERT，以及这里的预训练模型）让每个词元看到所有其他词元，而编码器–解码器（encoder-decoder）模型（最初的 Transformer）两者都有，并用交叉注意力把它们连起来。",
        ),
        MaskLegend => ("yellow: allowed (adds 0) · grey: blocked (adds −∞)", "黄色：允许（加 0）· 灰色：屏蔽（加 −∞）"),
        CrossTitle => ("Cross-attention", "交叉注意力"),
        CrossText => (
            "Queries come from one sentence, keys and values from another (the second sentence in the settings), so the matrix is n_q × n_kv and need not be square. A translation model's decoder uses it to look back at the source sentence. A causal mask means nothing here, so the page switches it off: the two sentences do not share one timeline, and standard encoder–decoder models give cross-attention none (at most a mask for padding). Streaming (simultaneous) models, such as translation that must start before the source sentence has ended, are the exception: they limit each query to the part of the source read so far.",
            "查询来自一个句子，键和值来自另一个句子（设置里的第二个句子），所以矩阵是 n_q × n_kv，不必是方阵。翻译模型的解码器就用它回看原文。因果掩码在这里没有意义，所以页面会把它关掉：两个句子并不共享同一条时间线，标准的编码器–解码器模型也不给交叉注意力加因果掩码（最多只有填充掩码）。流式（同步）模型是例外，例如必须在原句说完之前就开始输出的翻译：它们限制每个查询只看到目前读到的那部分原文。",
        ),

        PaddingTitle => ("Padding: two sentences of different lengths in one batch", "填充：一个批次里长度不同的两个句子"),
        PaddingText => (
            "A model runs many sentences at once, as one tensor of shape (batch, n, d_model), so every sentence in it must have the same n. The shorter ones are filled up with padding tokens ([PAD]) to the longest one's length, and a padding mask blocks the padded keys, as the causal mask blocks the future: their scores become −∞ and their weights exactly 0. Here the batch is this lesson's two sentences, the first and the second of the settings.",
            "模型一次处理许多句子，把它们放进一个形状为 (batch, n, d_model) 的张量，所以其中每个句子的 n 必须相同。较短的句子用填充词元（[PAD]）补到最长句子的长度，再由填充掩码（padding mask）屏蔽被填充的键，就像因果掩码屏蔽未来一样：它们的分数变成 −∞，权重恰好为 0。这里的批次就是本课的两个句子：设置里的第一个和第二个句子。",
        ),
        PaddingShown => (
            "Sentence {which} is the shorter: its {m} tokens are padded to {n} (grey: the masked padding keys). Its real tokens' outputs differ from running it alone by at most {diff}, rounding only: no real token can see a padded one. The padded rows (queries {from} to {n}) still get outputs, since a mask blocks keys, not queries; nothing uses them, because whatever reads the batch (a loss, an average over the sentence) skips them with the same mask.",
            "句子 {which} 较短：它的 {m} 个词元被填充到 {n} 个（灰色：被屏蔽的填充键）。它的真实词元的输出与单独运行它时相差最多 {diff}，只是舍入误差：没有哪个真实词元能看到填充的词元。填充的那几行（第 {from} 到第 {n} 个查询）仍然会得到输出，因为掩码屏蔽的是键而不是查询；但没有谁会用到它们，因为读取这个批次的计算（损失、对整句取平均）会用同一个掩码跳过它们。",
        ),
        PaddingSameLength => (
            "Both sentences have {n} tokens, so there is nothing to pad: make the second sentence (in the settings) shorter or longer to see the padding mask.",
            "两个句子都有 {n} 个词元，没有什么需要填充：把第二个句子（在设置里）改短或改长，就能看到填充掩码。",
        ),

        PatternsTitle => ("Head patterns, built by hand", "手工构造的注意力头模式"),
        PatternsIntro => (
            "Looking inside pretrained models, people keep finding the same kinds of heads. Here each kind is built from weights written down explicitly and run through the same attention code, so the pattern you see is computed, not drawn.",
            "研究预训练模型时，人们反复发现几类相同的注意力头。这里每一类都由明确写出的权重构造，再经过同一套注意力计算，所以你看到的模式是算出来的，不是画出来的。",
        ),
        PatternsBeyond => (
            "Trained models have more kinds than can be written down this simply: in BERT, for example, Clark et al. (2019) found heads that follow grammar (a verb's direct object attends to the verb, a determiner to its noun), heads in which a pronoun attends to the noun it refers to (the model view's case study tries one), and heads that rest on punctuation and the sentence's boundary tokens (the model view's depth table counts them).",
            "训练出来的模型里还有更多种类，没法这样简单地写出来：例如 Clark 等人（2019）在 BERT 中发现了沿着语法关系关注的头（动词的直接宾语关注这个动词，限定词关注它所修饰的名词），代词关注它所指代名词的头（模型视图里的案例研究就检验了一个），以及停在标点符号和句子边界词元上的头（模型视图的逐层表格统计了它们）。",
        ),
        PatternsWidth => (
            "These heads use d_model = 64 and no ÷√d_k (the weights carry their own scale), whatever the settings say.",
            "这些注意力头固定使用 d_model = 64，且不除以 √d_k（权重自带尺度），与设置无关。",
        ),
        PatPrev => ("Previous token", "前一个词元"),
        PatPrevText => (
            "Reads only the positional encoding. W_Q turns every sine–cosine pair back by one position (and doubles it), so the query of token i is 2·PE(i−1), and the key that matches it best is the token just before. This is an idealisation: the input here is PE alone, while a real head reads word embeddings added into the same dimensions.",
            "只读取位置编码。W_Q 把每一对正弦–余弦向回转一个位置并乘以 2，于是第 i 个词元的查询是 2·PE(i−1)，与它最匹配的键就是紧挨在前面的那个词元。这是理想化的构造：这里的输入只有 PE，而真实的注意力头读取的是词嵌入与位置编码相加后的向量。",
        ),
        PatLocal => ("Local window", "局部窗口"),
        PatLocalText => (
            "Queries and keys keep only the middle frequencies of the positional encoding. Their dot product is largest at the same position and falls off smoothly with distance, so the weight stays in a band around the diagonal, much like an n-gram.",
            "查询和键只保留位置编码中的中等频率。它们的点积在同一位置最大，并随距离平滑减小，所以权重集中在对角线附近的一条带上，很像 n 元语法（n-gram）。",
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
            "Treat the tokens as the nodes of a graph. The weights A are its adjacency matrix, but unlike a fixed graph they are recomputed for every input. Each node then gathers the values of its neighbours weighted by A: that is A·V. The nodes need not be words: a Vision Transformer (ViT) cuts an image into patches of 16 × 16 pixels, makes each patch a token, and lets the patches attend to each other in exactly this way.",
            "把词元看作一个图的节点。注意力权重 A 就是它的邻接矩阵；但与固定的图不同，它随每个输入重新计算。随后每个节点按 A 的权重收集邻居的值向量：这就是 A·V。节点也不一定是词：视觉 Transformer（Vision Transformer，ViT）把一张图像切成 16 × 16 像素的小块，每一块作为一个词元，让这些图像块以完全相同的方式相互关注。",
        ),
        GraphComplete => (
            "Here, self-attention without a mask, the graph is complete: every token is joined to every token, itself included.",
            "这里是不加掩码的自注意力，所以这是一个完全图：每个词元都与所有词元相连，包括它自己。",
        ),
        GraphCausal => (
            "The graph is always directed (the weight of i on j need not equal that of j on i); under the causal mask it is also acyclic apart from each token's loop to itself: a token receives messages only from itself and the tokens before it, so A is lower-triangular.",
            "这个图总是有向的（i 对 j 的权重不必等于 j 对 i 的权重）；使用因果掩码时，它除了自环之外还是无环的：每个词元只接收来自它自己和它之前词元的消息，所以 A 是下三角矩阵。",
        ),
        GraphBipartite => (
            "In cross-attention the graph is bipartite: messages flow only from the second sentence's tokens (keys and values) to the first sentence's tokens (queries).",
            "在交叉注意力中，这是一个二部图：消息只从第二个句子的词元（键和值）流向第一个句子的词元（查询）。",
        ),
        GraphEdges => (
            "Line thickness is the weight the selected token gives each token; messages flow from each key to the query. Click a node to select it.",
            "线的粗细表示选中的词元给每个词元的权重；消息从每个键流向查询。点击节点即可选中。",
        ),
        GraphGathers => ("{tok} gathers its new vector from:", "{tok} 从这些词元收集新的向量："),
        GraphAdjacency => ("Adjacency matrix A", "邻接矩阵 A"),
        GraphPicture => ("The tokens as a graph, edges weighted by attention", "词元构成的图，边的权重为注意力"),

        CxTitle => ("The O(n²) cost, FlashAttention and linear attention", "O(n²) 开销、FlashAttention 与线性注意力"),
        CxIntro => (
            "Every query meets every key, so each head's score matrix has n² entries: a thousand tokens are a million pairs, and doubling the length quadruples the work and the memory.",
            "每个查询都要与每个键相遇，所以每个头的分数矩阵有 n² 个元素：一千个词元就是一百万对，长度翻倍，计算量和内存都变成四倍。",
        ),
        CxN => ("Sequence length n", "序列长度 n"),
        CxPairs => ("Query–key pairs per head (n²)", "每个头的查询–键对的数量（n²）"),
        CxMem16 => ("Score memory, fp16 (all heads, one layer)", "分数占用的内存，fp16（所有头，一层）"),
        CxMem32 => ("Score memory, fp32", "分数占用的内存，fp32"),
        CxFlops => ("Softmax attention: QKᵀ and A·V", "softmax 注意力：QKᵀ 与 A·V"),
        CxLinFlops => ("Linear attention", "线性注意力"),
        CxChart => ("Operations against n (log₂ axes): softmax grows like n², linear like n", "运算量随 n 的变化（log₂ 坐标）：softmax 按 n² 增长，线性注意力按 n 增长"),
        FlashTitle => ("FlashAttention: the same result, tile by tile", "FlashAttention：分块计算，结果不变"),
        FlashText => (
            "FlashAttention never stores the n × n matrix. It loads a tile of queries and a tile of keys and values into the GPU's fast on-chip memory (SRAM), computes their scores, and keeps three things for each query: the largest score so far m, the sum so far l of the exponentials, and the output row so far O_i, not yet divided by l. When a new tile brings a larger maximum, l and O_i are both multiplied by exp(m_old − m_new) before the tile's own terms are added. After the last tile, O_i / l is exactly the softmax-weighted sum. The arithmetic is still O(n²·d); what falls is the memory (O(n) extra instead of the n × n matrix) and the traffic to the slow main memory of the GPU (HBM).",
            "FlashAttention 从不保存 n × n 矩阵。它把一块查询和一块键、值载入 GPU 片上的高速 SRAM，算出这一块的分数，每个查询只保留三样东西：当前最大值 m、指数累加和 l，以及尚未除以 l 的输出行 O_i。新的一块带来更大的最大值时，先把 l 和 O_i 都乘以 exp(m_old − m_new)，再加上这一块自己的项。最后一块处理完后，O_i / l 正好等于 softmax 加权和。运算量仍是 O(n²·d)；降下来的是内存（额外只需 O(n)，不必保存 n × n 矩阵）和对较慢的显存（HBM）的读写。",
        ),
        FlashTile => ("Tile size", "分块大小"),
        FlashStep => ("Step {i} of {n}: queries {r0}–{r1}, keys {c0}–{c1}", "第 {i} 步，共 {n} 步：查询 {r0}–{r1}，键 {c0}–{c1}"),
        FlashPlay => ("Play", "播放"),
        FlashPause => ("Pause", "暂停"),
        FlashError => ("Largest |tiled − full| difference in the output", "分块结果与完整计算之间的最大误差"),
        FlashPeak => ("Scores held at once: {tile} instead of {full}", "同时保存的分数：{tile} 个，而不是 {full} 个"),
        FlashRows => ("Row", "行"),
        FlashScores => ("Scores computed so far (grey: not yet)", "已计算的分数（灰色：尚未计算）"),
        LinearTitle => ("Linear attention: a kernel instead of exp", "线性注意力：用核函数代替 exp"),
        LinearText => (
            "Softmax attention weighs key j by {kernel}, normalised over the row: the first map below, the same weights as the lesson. Linear attention replaces that by φ(q_i)·φ(k_j) with φ(x) = elu(x) + 1, which is always positive, and regroups the sums: o_i = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ) / φ(q_i)ᵀ (Σ_j φ(k_j)). Both sums are computed once for all queries, so the cost is O(n·d_k·d_v) instead of O(n²·d): a win only when n is larger than about d_k. Under a causal mask the sums become running prefix sums, one state updated token by token, like an RNN's.",
            "softmax 注意力给第 j 个键的权重正比于 {kernel}，再按行归一化：即下面第一张图，与本课中的权重相同。线性注意力把它换成 φ(q_i)·φ(k_j)，其中 φ(x) = elu(x) + 1 恒为正，再把求和重新组合：o_i = φ(q_i)ᵀ (Σ_j φ(k_j) v_jᵀ) / φ(q_i)ᵀ (Σ_j φ(k_j))。两个和对所有查询只需计算一次，开销是 O(n·d_k·d_v) 而不是 O(n²·d)：只有当 n 大致超过 d_k 时才划算。使用因果掩码时，这两个和变成逐个词元更新的前缀和，就像 RNN 的状态。",
        ),
        LinearFlatter => (
            "The price, for the same Q and K: the linear weights come out flatter than softmax's (mean row entropy {lin} against {soft} nats; a uniform row has {uniform}).",
            "代价是（对同样的 Q 和 K）：线性注意力的权重比 softmax 的更平坦（每行的平均熵为 {lin}，softmax 为 {soft}，单位为奈特；均匀的一行是 {uniform}）。",
        ),
        LinearSharper => (
            "Here the softmax rows are the flatter ones (mean row entropy {soft} against {lin} nats for the linear weights; a uniform row has {uniform}): the linear weights ignore the temperature and the ÷√d_k, so which is flatter depends on the settings.",
            "这里反而是 softmax 的各行更平坦（每行的平均熵为 {soft}，线性注意力为 {lin}，单位为奈特；均匀的一行是 {uniform}）：线性注意力的权重不受温度和 ÷√d_k 的影响，所以谁更平坦取决于设置。",
        ),
        LinearWeights => ("Linear-attention weights", "线性注意力权重"),
        LinearError => ("Largest |O(n) way − direct way| in the output", "O(n) 算法与直接计算之间的最大误差"),
    }
}
