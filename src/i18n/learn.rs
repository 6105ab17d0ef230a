//! Messages of the training view (`view=learn`, its own module, `crate::learn`): the tasks and
//! what each should teach a head, the model's settings, the run's controls and readouts.

super::catalogue! {
    /// A message of the training view.
    pub enum LearnMsg {
        Nav => ("Train it yourself", "亲手训练"),
        Title => ("Watch attention learn", "看注意力如何学会"),
        Intro => (
            "A small Transformer starts here from random weights and is trained in your browser: token and position embeddings, one or two layers of multi-head attention with the causal mask, the residual stream and an unembedding, trained with cross-entropy and Adam. The gradients are written out for this model and checked against finite differences and against JAX. Press Train and watch the heads of the example below turn from noise into the pattern the task needs.",
            "这里有一个从随机权重开始的小型 Transformer，就在你的浏览器里训练：词元嵌入和位置嵌入、一到两层带因果掩码的多头注意力、残差流和反嵌入，用交叉熵和 Adam 训练。梯度是为这个模型逐项推导写出的，并与有限差分和 JAX 的结果核对过。点“训练”，看下面这个例子里的各个头如何从杂乱的噪声变成任务所需的模式。",
        ),
        Task => ("Task", "任务"),
        TaskReverse => ("Reverse", "倒序"),
        TaskSort => ("Sort", "排序"),
        TaskPrevious => ("Previous token", "前一个词元"),
        TaskInduction => ("Induction (two layers)", "归纳（两层）"),
        ExpectReverse => (
            "Eight digits, the separator |, then the same digits backwards. The k-th answer is the digit k places before the separator, so each answer's row looks a little further left than the row above it: expect an anti-diagonal below the separator.",
            "八个数字、分隔符 |，然后把这些数字倒过来写。第 k 个答案就是分隔符前第 k 个数字，所以每一行答案关注的位置都比上一行再往左一格：分隔符之后应当出现一条反对角线。",
        ),
        ExpectSort => (
            "Eight digits, the separator |, then the same digits in ascending order. Each answer must find the smallest digit not yet written, the next one up from the answer before it, so its weight jumps to wherever that digit sits in the first half: no fixed diagonal, a pattern that follows the values.",
            "八个数字、分隔符 |，然后把这些数字从小到大写出。每个答案都要找出还没写过的最小数字，也就是比上一个答案大的下一个数字，所以它的权重会跳到这个数字在前半段所在的位置：没有固定的对角线，模式随数值而变。",
        ),
        ExpectPrevious => (
            "Each digit predicts the digit before it. Position alone solves this: every row should put its weight one place to the left of the diagonal (a sub-diagonal).",
            "每个数字要预测它前面那个数字。只靠位置就能做到：每一行都应把权重放在对角线左边一格（一条次对角线）。",
        ),
        ExpectInduction => (
            "A run of distinct digits, then the same run again; each digit of the second copy predicts the one that follows it. One layer cannot do it. Two can: a head of layer 1 looks one place back, so every position carries its predecessor; a head of layer 2 then finds, from a digit of the second copy, the position whose predecessor is that digit, the one right after its first occurrence, and copies it (an induction head).",
            "一串互不相同的数字，然后把同一串再写一遍；第二遍中的每个数字要预测它后面的那个。一层做不到，两层可以：第 1 层的某个头往前看一格，让每个位置都带上它前一个数字的信息；第 2 层的某个头再从第二遍的数字出发，找到“前一个数字正是它”的位置，也就是它第一次出现之后的那个位置，并把那里的数字复制过来（归纳头）。",
        ),
        DModel => ("d_model (16–128)", "d_model（16–128）"),
        Heads => ("Heads (1–8)", "头数（1–8）"),
        Layers => ("Layers", "层数"),
        LearningRate => ("Learning rate", "学习率"),
        Batch => ("Batch size (sequences)", "批大小（序列数）"),
        Seed => ("Seed", "随机种子"),
        Scale => ("Divide the scores by √d_k", "分数除以 √d_k"),
        DkIs => ("Head width d_k = d_model / heads = {dk}", "每个头的维度 d_k = d_model / 头数 = {dk}"),
        ErrDModel => ("d_model must be a whole number from 16 to 128.", "d_model 必须是 16 到 128 之间的整数。"),
        ErrHeads => (
            "Heads: 1 to 8, and the heads must divide d_model evenly (d_model = heads × d_k).",
            "头数为 1 到 8，并且要能整除 d_model（d_model = 头数 × d_k）。",
        ),
        ErrLayers => ("1 or 2 layers.", "层数为 1 或 2。"),
        ErrLearningRate => ("The learning rate must be above 0 and at most 1.", "学习率必须大于 0、不超过 1。"),
        ErrBatch => ("Batch size: 1 to 256 sequences.", "批大小为 1 到 256 个序列。"),
        ErrSeed => ("The seed must be a whole number from 0 up.", "随机种子必须是不小于 0 的整数。"),
        Train => ("Train", "训练"),
        Pause => ("Pause", "暂停"),
        Step => ("One step", "走一步"),
        Reset => ("Reset", "重置"),
        Steps => ("Steps", "步数"),
        Loss => ("Loss (cross-entropy per answer)", "损失（每个答案的交叉熵）"),
        Accuracy => ("Accuracy on held-out sequences", "留出序列上的准确率"),
        Speed => ("Steps per second", "每秒步数"),
        Diverged => (
            "Learning rate too high: the loss became NaN at step {step}. Training stopped; press Reset to start again, with a smaller learning rate.",
            "学习率太高：第 {step} 步的损失变成了 NaN。训练已停止；请点“重置”，换一个更小的学习率重新开始。",
        ),
        LossChart => ("Loss against steps", "损失随步数的变化"),
        AccuracyChart => ("Held-out accuracy against steps", "留出准确率随步数的变化"),
        Example => ("Example (digits separated by spaces; | is the separator)", "例子（数字之间用空格分开；| 是分隔符）"),
        ErrExample => (
            "Use the digits 0 to {max} (and | in reverse and sort), at most {n} tokens.",
            "只能使用数字 0 到 {max}（倒序和排序任务还可以用 |），最多 {n} 个词元。",
        ),
        HeadMap => ("Layer {l}, head {h}", "第 {l} 层，第 {h} 个头"),
        Weights => ("Attention of every head on the example (rows: queries, columns: keys)", "各个头在这个例子上的注意力（行：查询；列：键）"),
        Loading => ("Loading the training module…", "正在加载训练模块……"),
        LoadFailed => ("The training module could not be loaded. Reload the page to try again.", "训练模块加载失败。请重新加载页面再试。"),
    }
}
