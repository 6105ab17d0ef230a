//! Messages of the training view (`view=learn`, its own module, `crate::learn`): the tasks and
//! what each should teach a head, the model's settings, the run's controls and readouts.

super::catalogue! {
    /// A message of the training view.
    pub enum LearnMsg {
        Nav => ("Train it yourself", "亲手训练"),
        Title => (
            "Watch attention learn",
            "看注意力如何学习",
        ),
        Intro => (
            "A small Transformer (attention only, unless you add the MLPs) starts here from random weights and is trained in your browser: token embeddings and positions (learned, sinusoidal or rotary, as you choose), one or two layers of multi-head attention with the causal mask (each, if you choose, followed by a small MLP), the residual stream and an unembedding, trained with cross-entropy and Adam. The gradients are written out for this model and checked against finite differences and against JAX. Press Train and watch each head's attention on the example below turn from noise into the pattern the task needs.",
            "这里有一个小型 Transformer（除非加上 MLP，否则只有注意力层），从随机权重开始，直接在你的浏览器里训练：词元嵌入和位置编码（可学习、正弦或旋转三种，任选其一）、一到两层带因果掩码的多头注意力（每层后面可以再加一个小 MLP）、残差流（residual stream）和反嵌入（unembedding），用交叉熵损失和 Adam 优化器训练。梯度的计算是针对这个模型手工推导实现的，并已与有限差分和 JAX 的结果核对。点“训练”，看各个头在下面这个示例上的注意力如何从噪声变成任务所需的模式。",
        ),
        HeadOff => ("switched off", "已关掉"),
        Task => ("Task", "任务"),
        TaskReverse => ("Reverse", "倒序"),
        TaskSort => ("Sort", "排序"),
        TaskPrevious => ("Previous token", "前一个词元"),
        TaskInduction => ("Induction (two layers)", "归纳（两层）"),
        ExpectReverse => (
            "Eight digits, the separator |, then the same digits backwards. The k-th answer is the digit k places before the separator, and it is predicted from the row just before it (the separator's row for the first). So from the separator's row on, each row looks one place further left than the row above: expect an anti-diagonal starting at the separator's row.",
            "八个数字、分隔符 |，然后把这些数字倒过来写。第 k 个答案就是分隔符前第 k 个数字，由它前一个位置的那一行来预测（第一个答案由分隔符那一行预测）。所以从分隔符那一行起，每一行关注的位置都比上一行再往左一格：应当出现一条从分隔符那一行开始的反对角线。",
        ),
        ExpectSort => (
            "Eight digits, the separator |, then the same digits in ascending order. Each answer is the smallest digit still left to write: the previous answer again while copies of it remain, otherwise the next larger digit in the first half. The row that predicts it should put its weight on wherever that digit sits in the first half: no fixed diagonal, a pattern that follows the values.",
            "八个数字、分隔符 |，然后把这些数字从小到大写出。每个答案都是剩下的数字中最小的那个：只要上一个答案的数字还没写完，就再写一遍它；否则就是前半段里比它大的下一个数字。预测它的那一行应把权重放在这个数字在前半段所在的位置：没有固定的对角线，模式随数值而变。",
        ),
        ExpectPrevious => (
            "Each digit predicts the digit before it. Position alone solves this: every row after the first should put its weight one place to the left of the diagonal (a sub-diagonal).",
            "每个数字要预测它前面那个数字。只靠位置就能做到：除第一行外，每一行都应把权重放在对角线左边一格（一条次对角线）。",
        ),
        ExpectInduction => (
            "A run of distinct digits, then the same run again; each digit of the second copy predicts the one that follows it. One layer cannot do it. Two can: a head of layer 1 looks one place back, so every position carries its predecessor; a head of layer 2 then finds, from a digit of the second copy, the position whose predecessor is that digit, the one right after its first occurrence, and copies it (an induction head).",
            "一串互不相同的数字，然后把同一串再写一遍；第二遍中的每个数字要预测它后面的那个。一层做不到，两层可以：第 1 层的某个头往前看一格，让每个位置都带上它前一个数字的信息；第 2 层的某个头再从第二遍的数字出发，找到“前一个数字正是它”的位置，也就是它第一次出现之后的那个位置，并把那里的数字复制过来（归纳头）。",
        ),
        DModel => (
            "d_model ({lo}–{hi})",
            "d_model（{lo}–{hi}）",
        ),
        Heads => (
            "Heads ({lo}–{hi})",
            "头数（{lo}–{hi}）",
        ),
        Layers => ("Layers", "层数"),
        LearningRate => ("Learning rate", "学习率"),
        Batch => ("Batch size (sequences)", "批大小（序列数）"),
        Seed => ("Seed", "随机种子"),
        Mlp => (
            "A small MLP after each attention layer (ReLU, 4 × d_model wide)",
            "每个注意力层后面加一个小 MLP（ReLU，宽度为 4 × d_model）",
        ),
        Scale => (
            "Divide the scores by √d_k",
            "注意力分数除以 √d_k",
        ),
        DkIs => (
            "Head width d_k = d_model / heads = {dk}",
            "每个头的维度 d_k = d_model / 头数 = {dk}",
        ),
        ErrDModel => (
            "d_model must be a whole number from {lo} to {hi}.",
            "d_model 必须是 {lo} 到 {hi} 之间的整数。",
        ),
        ErrHeads => (
            "Heads: {lo} to {hi}, and the heads must divide d_model evenly (d_model = heads × d_k).",
            "头数为 {lo} 到 {hi}，并且要能整除 d_model（d_model = 头数 × d_k）。",
        ),
        ErrLayers => (
            "{lo} or {hi} layers.",
            "层数为 {lo} 或 {hi}。",
        ),
        ErrLearningRate => ("The learning rate must be above 0 and at most 1.", "学习率必须大于 0、不超过 1。"),
        ErrBatch => (
            "Batch size: {lo} to {hi} sequences.",
            "批大小为 {lo} 到 {hi} 个序列。",
        ),
        ErrKvHeads => (
            "K/V heads: 1 up to the number of heads ({hi}), dividing it evenly (each K/V head serves the same number of query heads).",
            "K/V 头数为 1 到头数（{hi}），并且要能整除头数（每个 K/V 头服务同样多的查询头）。",
        ),
        KvHeads => ("K/V heads (1–{hi}, dividing the heads)", "K/V 头数（1–{hi}，能整除头数）"),
        CacheMha => ("multi-head attention: every query head has its own keys and values", "多头注意力：每个查询头都有自己的键和值"),
        CacheGqa => ("grouped-query attention: {per} query heads share each K/V head", "分组查询注意力：每 {per} 个查询头共用一个 K/V 头"),
        CacheMqa => ("multi-query attention: every query head shares one K/V head", "多查询注意力：所有查询头共用一个 K/V 头"),
        CacheSize => (
            "{kind}. Generating, the model keeps K and V of every token so far: 2 × {layers} layer(s) × {kv} K/V head(s) × d_k {dk} = {n} numbers per token ({full} with a K/V head per query head).",
            "{kind}。生成时，模型要为已有的每个词元保存 K 和 V：2 × {layers} 层 × {kv} 个 K/V 头 × d_k {dk} = 每个词元 {n} 个数（每个查询头各有一个 K/V 头时为 {full} 个）。",
        ),
        Positions => ("Positions", "位置编码"),
        ShiftRotary => (
            "On this model: moving the whole example {shift} places along changes no score of layer 1 by more than {far}. After the rotation a query's and a key's dot product depends, besides the two tokens themselves, only on how far apart they are, not on where they stand.",
            "在这个模型上：把整个示例往后挪 {shift} 个位置，第 1 层的分数变化都不超过 {far}。旋转之后，查询与键的点积除了取决于这两个词元本身，只取决于二者的相对偏移，与绝对位置无关。",
        ),
        ShiftAdded => (
            "On this model: moving the whole example {shift} places along changes layer 1's scores by up to {far}. With the positions added to the tokens, a score depends on where each token stands, not only on the two tokens and how far apart they are.",
            "在这个模型上：把整个示例往后挪 {shift} 个位置，第 1 层的分数最多变化 {far}。位置加在词元上时，绝对位置也会影响分数，而不只是两个词元本身和它们的相对偏移。",
        ),
        ShiftLearned => (
            "Learned positions are a vector for each of the {n} places the model was trained on and none past them: the example cannot be moved along to compare.",
            "可学习的位置嵌入只为模型训练过的 {n} 个位置各准备了一个向量，再往后就没有了：无法把示例往后挪来比较。",
        ),
        PositionsLearned => ("learned, added to the tokens", "可学习的，加到词元上"),
        PositionsSinusoidal => ("sinusoidal, added to the tokens", "正弦编码，加到词元上"),
        PositionsRope => ("rotary (RoPE): queries and keys turned by their position", "旋转位置编码（RoPE）：查询和键按位置旋转"),
        ErrSeed => ("The seed must be a whole number from 0 up.", "随机种子必须是不小于 0 的整数。"),
        Train => ("Train", "训练"),
        Pause => ("Pause", "暂停"),
        Step => (
            "One step",
            "训练一步",
        ),
        Reset => ("Reset", "重置"),
        OpenLesson => ("Open in the lesson", "在本课中打开"),
        OpenLessonHint => (
            "Opens the lesson's seven stages on this model as it is now, with the example as the sentence: step through projection, QKᵀ, ÷√d_k, softmax and A·V of the weights you just trained.",
            "在本课的七个步骤里打开这个模型此刻的权重，以示例作为句子：一步步看你刚训练出的权重如何做投影、QKᵀ、÷√d_k、softmax 和 A·V。",
        ),
        OpenFailed => (
            "This browser would not keep the model (its storage is full or switched off), so the lesson cannot open it.",
            "这个浏览器没能保存模型（存储空间已满或被禁用），所以本课无法打开它。",
        ),
        Steps => ("Steps", "步数"),
        Loss => (
            "Loss (mean cross-entropy per answer)",
            "损失（每个答案的平均交叉熵）",
        ),
        Accuracy => (
            "Held-out accuracy (share of answers right)",
            "留出集准确率（答对的答案比例）",
        ),
        Speed => ("Steps per second", "每秒步数"),
        Workers => ("Workers", "工作线程"),
        WorkersHint => (
            "How many of this computer's cores train the model: each worker computes the gradients of its share of every batch, the shares are summed in a fixed order, and one Adam step follows, so the run is the same on any number (to rounding). The page itself only draws. A new number starts a fresh run.",
            "用这台电脑的几个核心来训练模型：每个工作线程计算每一批中自己那一份样本的梯度，各份按固定顺序相加，再做一次 Adam 更新，所以无论用几个线程，训练结果都相同（只差舍入误差）。页面本身只负责绘图。换一个数字会重新开始训练。",
        ),
        WorkersInUse => ("{n} in use", "正在使用 {n} 个"),
        WorkersByCores => (
            "At most {n}: one per core this device reports.",
            "最多 {n} 个：这台设备报告的每个核心一个。",
        ),
        WorkersByMemory => (
            "At most {n}: this device reports {gb} GB of memory, and every worker keeps its own copy of the model, its gradients and the optimiser's state while it trains.",
            "最多 {n} 个：这台设备报告的内存为 {gb} GB，而每个工作线程训练时都各自保存一份模型、它的梯度和优化器的状态。",
        ),
        WorkersAtMost => ("At most {n}: the most the page starts.", "最多 {n} 个：页面最多启动这么多。"),
        WorkersUntoldMemory => (
            "{n} to start with, up to {most} (one per core): this browser does not say how much memory the device has, and every worker keeps its own copy of the model, its gradients and the optimiser's state while it trains. Choose more where the device has memory to spare.",
            "默认 {n} 个，最多 {most} 个（每个核心一个）：这个浏览器不报告设备有多少内存，而每个工作线程训练时都各自保存一份模型、它的梯度和优化器的状态。设备内存充裕时可以选更多。",
        ),
        WorkerFailed => (
            "Training stopped: a worker failed ({why}). The page keeps working; press Reset to start a fresh run.",
            "训练已停止：一个工作线程出错（{why}）。页面仍可正常使用；点“重置”重新开始训练。",
        ),
        Diverged => (
            "Learning rate too high: the loss stopped being a finite number (NaN or ∞) at step {step}. Training stopped; enter a smaller learning rate to start a fresh run.",
            "学习率太高：第 {step} 步的损失变成了 NaN 或无穷大。训练已停止；请输入更小的学习率，重新开始训练。",
        ),
        Settled => (
            "Paused at step {steps}: the held-out accuracy has stayed at {acc} % since step {since}, so the model has learned its task and training on would change little you can see. Train goes on from here; Open in the lesson shows what it learned.",
            "已在第 {steps} 步暂停：留出集准确率从第 {since} 步起一直保持在 {acc}%，模型已经学会了这个任务，继续训练也看不出什么变化。点“训练”从这里继续；点“在本课中打开”看看它学到了什么。",
        ),
        LossChart => ("Loss against steps", "损失随步数的变化"),
        AccuracyChart => (
            "Held-out accuracy against steps",
            "留出集准确率随步数的变化",
        ),
        Example => (
            "Example (digits separated by spaces; | is the separator)",
            "示例（数字之间用空格分开；| 是分隔符）",
        ),
        ErrExample => (
            "Use the digits 0 to {max} (and | in reverse and sort), at most {n} tokens.",
            "只能使用数字 0 到 {max}（倒序和排序任务还可以用 |），最多 {n} 个词元。",
        ),
        HeadMap => ("Layer {l}, head {h}", "第 {l} 层，第 {h} 个头"),
        Weights => (
            "Attention of every head on the example (rows: queries, columns: keys)",
            "各个头在这个示例上的注意力（行：查询；列：键）",
        ),
        ExperimentButton => (
            "Scaling experiment: d_k = {dk}, with and without ÷√d_k",
            "缩放实验：d_k = {dk}，除以与不除以 √d_k",
        ),
        ExperimentIntro => (
            "The same model trained twice from the same seed on the same batches, with one head of d_k = {dk}: once dividing the scores by √d_k, once not. Without the division the scores start about √{dk} ≈ {root} times wider, so the softmax rows start closer to one-hot and less gradient reaches the scores. The curves below are the two runs as they train in this page.",
            "同一个模型用同一个随机种子、同样的批次训练两次，只有一个头，d_k = {dk}：一次把注意力分数除以 √d_k，一次不除。不除时，分数的离散程度一开始就约为除以之后的 √{dk} ≈ {root} 倍，所以 softmax 的各行一开始就更接近独热，能传回分数的梯度也更少。下面的曲线就是这两次训练在本页中实时运行的结果。",
        ),
        Scaled => ("÷√d_k", "除以 √d_k"),
        Unscaled => ("not divided", "不除"),
        GradientChart => (
            "Softmax gradient against steps (the mean norm of its Jacobian over the example's rows)",
            "softmax 梯度随步数的变化（示例各行上雅可比矩阵范数的平均）",
        ),
        ExperimentResult => (
            "{name}: loss {loss}, held-out accuracy {acc}, softmax gradient {grad} after {step} steps.",
            "{name}：训练 {step} 步后，损失 {loss}，留出集准确率 {acc}，softmax 梯度 {grad}。",
        ),
        Loading => ("Loading the training module…", "正在加载训练模块……"),
        LoadFailed => (
            "The training module could not be loaded: its files did not arrive, three tries in a row (is the network or the server there?). Your settings are kept.",
            "训练模块加载失败：连试三次，它的文件都没有送达（网络或服务器是否可用？）。你的设置都还在。",
        ),
    }
}
