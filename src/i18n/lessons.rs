//! Messages of the lessons beside the main one: √d_k against d_k, the convex combination,
//! positional encoding, attention against recurrence and convolution, the Transformer block,
//! why several heads, and attention as (not) an explanation; and the chapters of the
//! navigation.

super::catalogue! {
    /// A message of the side lessons and the chapters.
    pub enum LessonMsg {
        ChapterLesson => ("The lesson", "讲解"),
        ChapterWhy => ("Why it works", "为什么可行"),
        ChapterVariants => ("Variants and context", "变体与背景"),
        ChapterModels => ("Real models", "真实模型"),
        ChapterEfficiency => ("Efficiency", "效率"),

        NavChoices => ("√d_k, d_k or nothing", "√d_k、d_k 还是不除"),
        NavConvex => ("A weighted average", "加权平均"),
        NavPosition => ("Positions", "位置编码"),
        NavRnnCnn => ("vs RNN and CNN", "对比 RNN 与 CNN"),
        NavBlock => ("The Transformer block", "Transformer 块"),
        SideLoading => ("Loading this lesson…", "正在加载这一课……"),
        SideFailed => (
            "This lesson could not be loaded: its files did not arrive, three tries in a row (is the network or the server there?). Your settings are kept.",
            "这一课加载失败：连试三次，它的文件都没有送达（网络或服务器是否可用？）。你的设置都还在。",
        ),

        ChoicesTitle => ("Divide by √d_k, by d_k, or not at all?", "除以 √d_k、除以 d_k，还是不除？"),
        ChoicesIntro => (
            "The same raw scores S of the chosen head go through the softmax three ways. Undivided, their spread grows like √d_k and the rows turn one-hot. Divided by d_k, the spread shrinks like 1/√d_k and every row flattens towards the uniform average: the head can no longer pick anything out, and the larger d_k (each head's width), the flatter. Only √d_k keeps the spread of order 1 at every d_k. (The settings' temperature is left out here: T = 1.)",
            "把所选注意力头的同一组原始分数 S 用三种方式送进 softmax。不除时，分数的离散程度随 √d_k 增长，各行变成独热。除以 d_k 时，离散程度按 1/√d_k 缩小，每一行都趋向均匀分布：这个头再也挑不出任何东西，d_k（每个头的维度）越大就越平。只有除以 √d_k，才能让离散程度在任何 d_k 下都保持在 1 的量级。（这里不考虑设置中的温度：T = 1。）",
        ),
        ChoiceOne => ("Not divided: softmax(S)", "不除：softmax(S)"),
        ChoiceSqrt => ("softmax(S / √d_k), √d_k = {v}", "softmax(S / √d_k)，√d_k = {v}"),
        ChoiceDk => ("softmax(S / d_k), d_k = {v}", "softmax(S / d_k)，d_k = {v}"),
        ChoiceStd => ("Spread of the divided scores (std)", "除后分数的标准差"),
        ChoiceTop => ("Top weight of a typical row", "典型行的最大权重"),
        ChoicesIdentity => (
            "Dividing by √d_k is the same as a softmax temperature T = √d_k: softmax(S/√d_k) and softmax(S/T) at T = √d_k differ here by {err} at most (rounding). So in the lesson, switching scaling off and setting T to √d_k (as near as the slider's two decimals allow, and up to its limit of 20) gives the scaled picture back.",
            "除以 √d_k 与 softmax 温度 T = √d_k 完全等价：这里 softmax(S/√d_k) 与 T = √d_k 时的 softmax(S/T) 最多相差 {err}（舍入误差）。所以在本课中关闭缩放、把 T 设为 √d_k（在滑块两位小数的精度内，且不超过它的上限 20），就会得到与缩放后相同的图。",
        ),

        ConvexTitle => ("Every output is a weighted average of the values", "每个输出都是值向量的加权平均"),
        ConvexIntro => (
            "The weights of a row are non-negative and add up to 1, so the output o_i = Σ_j A_ij v_j is a convex combination of the value vectors: it always lies inside the smallest convex shape that holds them (their convex hull). Here the value vectors of the chosen head are projected onto the plane where they spread most (their first two principal directions); the projection is affine and the weights add up to 1, so the projected output is the same weighted average of the projected values. Lower the temperature and the output runs to the value with the largest weight; raise it and it moves to the plain average.",
            "一行的权重非负且总和为 1，所以输出 o_i = Σ_j A_ij v_j 是值向量的凸组合：它总是落在包含这些值向量的最小凸集（凸包）之内。这里把所选注意力头的值向量投影到它们方差最大的平面上（前两个主方向）；投影是仿射的，且权重之和为 1，所以投影后的输出正是投影后的值向量的同一个加权平均。降低温度，输出会跑向权重最大的那个值；升高温度，它会移向简单平均。",
        ),
        ConvexQuery => ("Query", "查询"),
        ConvexTemperature => ("Temperature of this picture T = {t}", "这张图的温度 T = {t}"),
        ConvexPicture => (
            "Value vectors (dots, labelled by token), their convex hull, and the output of the chosen query (ring); line thickness is the weight",
            "值向量（圆点，标有词元）、它们的凸包，以及所选查询的输出（圆环）；线的粗细表示权重",
        ),
        ConvexInside => ("The output lies inside the hull: {inside}", "输出位于凸包之内：{inside}"),
        Yes => ("yes", "是"),
        No => ("no", "否"),

        PositionTitle => ("Positional encoding: relative position by rotation", "位置编码：用旋转表示相对位置"),
        PositionIntro => (
            "Each pair of columns of the sinusoidal encoding is a point on a circle turning at its own speed ω as the position grows: (sin pω, cos pω). Moving k positions turns every pair by the angle kω, whatever p is, so PE(p + k) is a fixed rotation of PE(p) that depends on k alone. Two consequences: a linear map (such as W_Q or W_K) can express \"k tokens back\", and the dot product PE(p)·PE(q) depends only on p − q, which is why the map below is constant along every diagonal.",
            "正弦位置编码的每一对列，都是圆上的一个点，随着位置增大以各自的角速度 ω 旋转：(sin pω, cos pω)。向后移动 k 个位置，每一对都转过角度 kω，与 p 无关；所以 PE(p + k) 是 PE(p) 的一个固定旋转，只取决于 k。由此有两个结果：线性映射（例如 W_Q 或 W_K）可以表达“往回数 k 个词元”；点积 PE(p)·PE(q) 只取决于 p − q，所以下面这张图沿每条对角线都是常数。",
        ),
        PositionGram => ("PE · PEᵀ for positions 1–{n}, d_model = {d}", "位置 1–{n} 的 PE · PEᵀ，d_model = {d}"),
        PositionOffset => ("Offset k = {k}", "偏移 k = {k}"),
        PositionError => (
            "Largest |rotation_k(PE(p)) − PE(p + k)| over every position",
            "所有位置上 |rotation_k(PE(p)) − PE(p + k)| 的最大值",
        ),
        PositionDiagonal => (
            "Along the diagonal k places right of the main one, every entry is {v}: the similarity of two positions k apart, wherever they are.",
            "在主对角线右侧第 k 条对角线上，每个元素都是 {v}：相距 k 的两个位置的相似度，与它们在哪里无关。",
        ),

        RnnCnnTitle => ("Attention, recurrence and convolution", "注意力、循环网络与卷积"),
        RnnCnnIntro => (
            "Three ways to let the tokens of a sentence exchange information, compared as the Transformer paper does. A recurrent network reads one token after another: n steps that cannot run in parallel, and a signal from the first token needs n − 1 steps to reach the last, fading on the way. A convolution of width k sees k neighbouring tokens at once: it runs in parallel, but each layer reaches only k − 1 tokens further, so two distant tokens meet only after about n/(k − 1) stacked layers (counted here for a causal convolution, which looks back only). Self-attention joins every pair in one step, at the price of the n² pairs.",
            "让句子中的词元互相交换信息，有三种办法；这里按 Transformer 论文的方式比较。循环网络一个接一个地读词元：n 步无法并行，第一个词元的信号要经过 n − 1 步才能到达最后一个，途中还会衰减。宽度为 k 的卷积一次看 k 个相邻的词元：可以并行，但每一层只能多看到 k − 1 个词元，所以两个相距很远的词元要叠加约 n/(k − 1) 层才能相遇（这里按只看当前及之前词元的因果卷积计算）。自注意力一步就连接任意两个词元，代价是 n² 个词元对。",
        ),
        RnnCnnChart => (
            "Longest path between two tokens against n (log₂ axes): recurrence n − 1, causal convolution (k = {k}) ⌈(n − 1)/(k − 1)⌉ layers, attention 1",
            "两个词元之间的最长路径随 n 的变化（log₂ 坐标）：循环网络 n − 1，因果卷积（k = {k}）⌈(n − 1)/(k − 1)⌉ 层，注意力 1",
        ),
        RnnCnnMixer => ("Layer type", "层的类型"),
        RnnCnnPath => ("Longest path", "最长路径"),
        RnnCnnSteps => ("Steps one after another", "必须依次执行的步数"),
        RnnCnnWork => ("Work per layer", "每层的计算量"),
        MixerAttention => ("Self-attention", "自注意力"),
        MixerRecurrent => ("Recurrent (RNN)", "循环网络（RNN）"),
        MixerConvolution => ("Causal convolution, k = {k}", "因果卷积，k = {k}"),

        BlockTitle => ("Where attention sits: one Transformer block", "注意力在哪里：一个 Transformer 块"),
        BlockIntro => (
            "Attention is one of two parts of a Transformer block. After it, the input is added back (a residual connection, so each block only adds a correction) and the sum is normalised (LayerNorm). Then a feed-forward network works on every token on its own, widening d_model to about 4 · d_model and back, followed by a second residual and LayerNorm. A model stacks N such blocks: all-MiniLM-L6-v2 has 6, BERT-base 12. Attention is the only place where tokens exchange information; everything else works token by token. This is the original order (normalise after the sum, as in BERT and the pretrained model here); most newer models normalise before each part instead.",
            "注意力只是 Transformer 块的两个部分之一。在它之后，输入被加回来（残差连接，于是每个块只是添加一个修正），再对和做层归一化（LayerNorm）。接着，前馈网络逐个词元独立计算，把 d_model 扩展到约 4 · d_model 再变回来，随后是第二个残差连接和 LayerNorm。模型把 N 个这样的块叠起来：all-MiniLM-L6-v2 有 6 个，BERT-base 有 12 个。注意力是词元之间交换信息的唯一地方，其余部分都是逐个词元计算。这里画的是原始的顺序（先相加再归一化，BERT 和这里的预训练模型都是这样）；较新的模型大多改为在每个部分之前归一化。",
        ),
        BlockInput => ("Input X: embeddings + positions", "输入 X：嵌入 + 位置"),
        BlockAttention => ("Multi-head attention (this site)", "多头注意力（本网站讲的部分）"),
        BlockAddNorm => ("Add & LayerNorm", "残差相加 + 层归一化"),
        BlockFfn => ("Feed-forward: d_model → 4·d_model → d_model", "前馈网络：d_model → 4·d_model → d_model"),
        BlockRepeat => ("× N blocks, then the task's head", "× N 个块，之后是具体任务的输出层"),
        BlockResidual => ("residual", "残差"),
        BlockOpen => ("Open the lesson on attention", "打开注意力讲解"),

        OverviewTitle => ("The whole formula: scaled dot-product attention", "整个公式：缩放点积注意力"),
        OverviewText => (
            "Most introductions to attention open with this one line. It is called scaled dot-product attention: dot products of queries and keys, scaled by √d_k (d_k: the width of one head's queries and keys, d_model / h), turned into weights by a softmax, which then average the values. Multi-head attention runs it once per head and joins the heads, Concat(head_1, …, head_h) · W_O: the last piece below. The lesson computes it piece by piece; each piece below opens the stage that computes it.",
            "讲注意力的资料几乎都从这一行公式讲起。它叫作缩放点积注意力：查询与键做点积，再除以 √d_k 缩放（d_k 是每个头的查询和键的维度，即 d_model / h），经 softmax 变成权重，最后用这些权重对值取加权平均。多头注意力对每个头各算一次，再把各头拼接起来乘以 W_O：Concat(head_1, …, head_h) · W_O，也就是下面的最后一块。本课一块一块地计算它；点击下面的每一块，就能打开计算它的那一步。",
        ),
        OverviewPieces => ("The pieces of the formula and their stages", "公式的各个部分及其对应的步骤"),
        /// The overview's button to stage 1.
        Start => ("Start: step 1 →", "开始：第 1 步 →"),
        /// After the last stage: where the lesson goes on.
        NextTitle => ("Where next", "接下来去哪里"),
        NextLab => (
            "Drag d_k with the scaling off and watch the softmax saturate, then switch the scaling on.",
            "在关闭缩放时拖动 d_k，看 softmax 如何饱和，再打开缩放对比。",
        ),
        NextModel => (
            "The same steps with the weights of a trained model, every layer and head on your sentence (a download of about 25 MB).",
            "用一个训练好的模型的权重走同样的步骤，在你的句子上查看每一层、每一个头（需要下载约 25 MB）。",
        ),
        NextLearn => (
            "Train a small model on a task and watch its attention learn, in the browser.",
            "在浏览器里用一个任务训练一个小模型，看它的注意力是怎样学出来的。",
        ),
        ReshapeTitle => ("Splitting heads is a reshape", "拆分多头只是一次改变形状"),
        ReshapeText => (
            "No head has a matrix of its own: Q is one (1, {n}, {d}) product, and a reshape makes the heads. q.view(1, {n}, {h}, {dk}) cuts each row's {d} numbers into {h} groups of {dk}, head i taking group i (the columns above); .transpose(1, 2) swaps the token and head axes, giving (1, {h}, {n}, {dk}). The heads are now a batch dimension, and one batched product, q @ k.transpose(-2, -1), makes every head's {n} × {n_kv} scores at once. transpose returns a view: it swaps two strides and copies nothing. A copy happens only at the end, when out.transpose(1, 2).reshape(1, {n}, {d}) joins the heads again, since the transposed tensor is no longer contiguous.",
            "没有哪个头拥有自己的矩阵：Q 是一次 (1, {n}, {d}) 的乘积，多头是靠改变形状得到的。q.view(1, {n}, {h}, {dk}) 把每一行的 {d} 个数切成 {h} 组、每组 {dk} 个，第 i 个头取第 i 组（即上面说的那些列）；.transpose(1, 2) 交换词元轴和头轴，得到 (1, {h}, {n}, {dk})。这样头就成了一个批次维度，一次批量乘法 q @ k.transpose(-2, -1) 就同时算出每个头的 {n} × {n_kv} 分数。transpose 返回的是视图：它只交换两个步长，不复制任何数据。只有在最后，用 out.transpose(1, 2).reshape(1, {n}, {d}) 把各头重新拼起来时才会复制，因为转置后的张量在内存中已不再连续。",
        ),
        WhyHeadsTitle => ("Why several heads?", "为什么要多个头？"),
        WhyHeads => (
            "h heads of width d_k = d_model / h take about the same multiplications as one head of width d_model: the projections hold the same d_model × d_model weights, and the score and the A·V products each take n² · d_model multiplications in all. They do hold more numbers: h score matrices of n × n, h · n² scores and weights instead of n², as the O(n²) cost view counts them. What differs most is what they can say. A head's scores are x_i W_Q (x_j W_K)ᵀ, a similarity through a matrix of rank at most d_k, and its softmax gives each token one weight pattern. Several narrow heads give several patterns at once, each comparing the tokens in its own low-dimensional subspace: one can follow the previous word while another finds the subject. W_O then mixes what they found.",
            "h 个宽度为 d_k = d_model / h 的头，与一个宽度为 d_model 的头所需的乘法次数大致相同：投影同样是 d_model × d_model 个权重，分数和 A·V 的乘积合计也都是 n² · d_model 次乘法。但它们要存下更多的数：h 个 n × n 的分数矩阵，即 h · n² 个分数和权重，而不是 n² 个，“O(n²) 开销”视图统计的正是这些数。最大的不同在于它们能表达什么。一个头的分数是 x_i W_Q (x_j W_K)ᵀ，即通过一个秩不超过 d_k 的矩阵计算的相似度，它的 softmax 给每个词元一种权重模式。多个 d_k 较小的头能同时给出多种模式，各自在自己的低维子空间里比较词元：一个头可以关注前一个词，另一个头去找主语。最后由 W_O 把它们的发现混合起来。",
        ),

        NotExplanationTitle => ("Attention is not an explanation", "注意力不等于解释"),
        NotExplanation => (
            "A weight says how much of one token's value went into another token's new vector, in one head of one layer. It does not say why the model decided what it did: the other heads, the residual stream and the feed-forward layers carry as much. Jain and Wallace (\"Attention is not Explanation\", NAACL 2019) found that quite different attention weights can give the same prediction and often disagree with other measures of importance; Wiegreffe and Pinter (\"Attention is not not Explanation\", EMNLP 2019) answered that weights can still be informative when tested with care. Read the case study above as where each head looks, not as what the model takes \"it\" to mean.",
            "一个权重说的是：在某一层的某一个头里，一个词元的值有多少进入了另一个词元的新向量。它并不说明模型为什么做出这样的判断：其他的头、残差流和前馈层同样起作用。Jain 和 Wallace（“Attention is not Explanation”，NAACL 2019）发现，差别很大的注意力权重可以给出相同的预测，而且常与其他重要性度量不一致；Wiegreffe 和 Pinter（“Attention is not not Explanation”，EMNLP 2019）回应说，经过仔细检验，权重仍然可以提供信息。所以，请把上面的案例研究理解为“每个头在看哪里”，而不是“模型认为 ‘it’ 指的是什么”。",
        ),
    }
}
