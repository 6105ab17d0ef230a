//! Messages of "Predict first": the questions, their feedback, the "Check yourself" exercises,
//! the tally and the teacher's "Ask the class".

super::catalogue! {
    /// A message of the predict-first mode.
    pub enum PredictMsg {
        Toggle => ("Predict first", "先预测"),
        ToggleHint => (
            "Each stage asks you a question first, and shows its figure once you have answered",
            "每一步先向你提问，回答之后才显示这一步的图",
        ),
        Title => ("Predict first", "先预测"),
        Loading => ("Loading the question…", "正在加载问题……"),
        Failed => (
            "The questions could not be loaded: their files did not arrive, three tries in a row. Try again, or switch “Predict first” off to see the figures.",
            "问题加载失败：连试三次，它们的文件都没有送达。可以重试，或关闭“先预测”直接看图。",
        ),
        Hidden => ("The figure appears once you have answered.", "回答之后才会显示图。"),
        BothFirst => (
            "This stage asks a second question before its figure: answer both, then see.",
            "这一步在显示图之前还有第二个问题：两个都回答之后才显示。",
        ),
        MoveSlider => ("move the slider", "请拖动滑块"),
        OneTry => (
            "One try: your first answer is the prediction; the figure then shows why.",
            "只有一次机会：第一次回答就是你的预测，之后图会告诉你为什么。",
        ),
        Check => ("Check", "检查"),
        YourAnswer => ("Your answer", "你的答案"),
        PositionalOn => ("with positional encoding", "已加上位置编码"),
        PositionalOff => ("without positional encoding", "未加位置编码"),
        PositionalRotary => (
            "no positions in it: this model turns each head's Q and K by position instead (RoPE)",
            "其中不含位置：这个模型改为按位置旋转每个头的 Q 和 K（RoPE）",
        ),
        PositionalLater => (
            "the output of the layers before, which have mixed each token with the others",
            "前面各层的输出，其中每个词元都已和其他词元混合过",
        ),
        AmongOpen => (
            "Only the keys it may see count: the causal mask hides the later ones (grey on the map).",
            "只算它能看到的键：因果掩码遮住了后面的键（图中显示为灰色）。",
        ),
        RandomGuess => (
            "(The weights are random: nothing tells in advance which key wins, so this is a guess you then check against the numbers.)",
            "（权重是随机的：事先无从判断哪个键胜出，所以这是一次猜测，之后再用数字核对。）",
        ),
        ScalingOn => ("on", "已开启"),
        ScalingOff => ("off", "已关闭"),
        QInput => (
            "X is the input of this layer ({pe}). Which rows of X are exactly equal to another row? Select them (or none), then press Check.",
            "X 是这一层的输入（{pe}）。X 的哪些行与另一行完全相同？选出它们（也可以一个都不选），然后按“检查”。",
        ),
        QProjection => (
            "With {n} tokens, d_model = {d} and {h} heads, what is the shape of one head's queries Q_h? Type rows × columns.",
            "共 {n} 个词元，d_model = {d}，{h} 个头：一个头的查询 Q_h 是什么形状？请输入“行 × 列”。",
        ),
        QScores => (
            "In head {h}, which key gives the query “{q}” the highest raw score q·k? Click it.",
            "在第 {h} 个头中，哪个键与查询“{q}”的原始分数 q·k 最高？点击它。",
        ),
        QScaling => (
            "In head {h}, the raw scores have a spread (standard deviation) of {raw}. Scaling ÷√d_k is {on}. What is their spread at this stage? Type a number (answers within 10 % count as right).",
            "在第 {h} 个头中，原始分数的离散程度（标准差）是 {raw}。缩放（÷√d_k）{on}。这一步的分数标准差是多少？请输入一个数（误差在 10 % 以内算对）。",
        ),
        QSoftmax => (
            "In head {h}, which key gets the most weight from the query “{q}”? Click it.",
            "在第 {h} 个头中，查询“{q}”把最多的权重给了哪个键？点击它。",
        ),
        QOutput => (
            "In head {h}, the output of “{q}” is a weighted mix of the value vectors. Which value vector has the largest share in it? Click its token.",
            "在第 {h} 个头中，“{q}”的输出是各个值向量的加权混合。哪个值向量在其中所占的比重最大？点击那个词元。",
        ),
        QMultiHead => (
            "Q has {d} columns, split among {n} heads. Which columns does head {h} read? Type first–last (e.g. 5–8), counting from 1.",
            "Q 有 {d} 列，平分给 {n} 个头。第 {h} 个头读取 Q 的哪几列？请输入起止列号（如 5–8），从 1 开始数。",
        ),
        QLargest => (
            "And with scaling ÷√d_k {on} at d_k = {dk}: roughly how large is the largest weight the query “{q}” gives in head {h}? Set the slider (within 0.1).",
            "再问：缩放（÷√d_k）{on}，d_k = {dk}：在第 {h} 个头中，查询“{q}”给出的最大权重大约是多少？拖动滑块（误差 0.1 以内算对）。",
        ),
        FbLargest => (
            "The largest weight is {v}. The values this row puts into the softmax (its scores ÷ {sq}) run from {lo} to {hi}; a difference g between two of them becomes a weight ratio of e^(g/T). Here T = {t}, so the widest one, (hi − lo)/T = {gap}, makes the largest weight e^{gap} times the smallest.",
            "最大权重是 {v}。这一行送入 softmax 的值（分数 ÷ {sq}）从 {lo} 到 {hi}；两个值相差 g，它们的权重之比就是 e^(g/T)。这里 T = {t}，最大差值（最大值 − 最小值）/T = {gap}，所以最大权重是最小权重的 e^{gap} 倍。",
        ),
        YoursSaid => ("You said {x}.", "你的答案是 {x}。"),
        Right => ("Right.", "答对了。"),
        Wrong => ("Not quite.", "不太对。"),
        Yours => ("You chose {k} ({v}).", "你选的是 {k}（{v}）。"),
        YoursMasked => ("You chose {k}, which the mask hides from this query.", "你选的是 {k}，但掩码让这个查询看不到它。"),
        YoursOff => ("You said {x}, {pct} % off.", "你的答案是 {x}，相差 {pct} %。"),
        FbInputSame => (
            "These rows each equal another row: {rows}. Nothing tells their positions apart (there is no positional encoding), so the same token gives the same row.",
            "这些行各与另一行完全相同：{rows}。没有位置编码，无法区分位置，所以同一个词元得到同样的行。",
        ),
        FbInputSameRotary => (
            "These rows each equal another row: {rows}. This model adds nothing to X for positions: RoPE turns Q and K by position inside attention instead, so repeated tokens share a row here and differ only in their scores.",
            "这些行各与另一行完全相同：{rows}。这个模型不往 X 里加任何位置信息：RoPE 改在注意力内部按位置旋转 Q 和 K，所以重复的词元在这里共用同样的行，只在分数上有所不同。",
        ),
        FbInputContext => (
            "No two rows are equal: X here is what layer {layer} passed on, each row already mixed with the others by attention, so even the repeated tokens ({tokens}) differ.",
            "没有两行相同：这里的 X 是第 {layer} 层传下来的，每一行都已经通过注意力和其他词元混合过，所以即使是重复的词元（{tokens}）也各不相同。",
        ),
        FbInputPositions => (
            "No two rows are equal: the positional encoding gives each position its own vector, so even the repeated tokens ({tokens}) get different rows.",
            "没有两行相同：位置编码给每个位置一个不同的向量，所以即使是重复的词元（{tokens}）也得到不同的行。",
        ),
        FbInputNoRepeat => (
            "No two rows are equal: no token appears twice in this sentence.",
            "没有两行相同：这句话里没有重复出现的词元。",
        ),
        FbShape => (
            "Q_h is {n} × {dk}: one row per token, and d_model / h = {d} / {h} = {dk} columns.",
            "Q_h 是 {n} × {dk}：每个词元一行，列数为 d_model / h = {d} / {h} = {dk}。",
        ),
        FbScores => (
            "{best} scores highest: {v}. Its key has the largest dot product with this query: direction and length both count (q · k = |q| |k| cos θ).",
            "得分最高的是 {best}：{v}。它的键与这个查询的点积最大：方向和长度都起作用（q · k = |q| |k| cos θ）。",
        ),
        FbSoftmax => (
            "{best} gets the most weight: {v}. The softmax keeps the order of the scores, so the key that scored highest (of those the query may see) gets the most weight.",
            "得到最多权重的是 {best}：{v}。softmax 不改变分数的大小顺序，所以（在查询能看到的键中）得分最高的键得到的权重最多。",
        ),
        FbOutput => (
            "The value of {best} has the largest share, its weight {v}: the output Σ a_j v_j leans towards the values with the most weight.{nearest}",
            "{best} 的值向量所占比重最大，权重为 {v}：输出 Σ a_j v_j 偏向权重最大的那些值向量。{nearest}",
        ),
        FbOutputNearest => (
            " The value vector nearest the output is {near}'s, though (distance {dist}): with weights this spread out, the output sits between the values, close to none in particular.",
            "不过离输出最近的是 {near} 的值向量（距离 {dist}）：权重这样分散时，输出落在各个值向量之间，并不特别靠近哪一个。",
        ),
        FbSpreadScaled => (
            "The spread is {s} = {raw} ÷ √{dk} = {raw} ÷ {sq}: dividing every score by √d_k divides their spread by the same number.",
            "标准差是 {s} = {raw} ÷ √{dk} = {raw} ÷ {sq}：每个分数都除以 √d_k，标准差也就除以同一个数。",
        ),
        FbSpreadUnscaled => (
            "The spread stays {s}: scaling is off, so the scores are used as they are (raw {raw}).",
            "标准差仍是 {s}：缩放已关闭，分数原样使用（原始为 {raw}）。",
        ),
        FbRange => (
            "Head {h} reads columns {a}–{b}: each head takes its own block of d_k = {dk} consecutive columns.",
            "第 {h} 个头读取第 {a}–{b} 列：每个头各取连续的 d_k = {dk} 列。",
        ),
        PickOne => ("Choose one of the tokens.", "请选择一个词元。"),
        TypeNumber => ("Type a number, like 1.25.", "请输入一个数，例如 1.25。"),
        TypePair => ("Type two whole numbers, like 6 × 4 or 5–8.", "请输入两个整数，例如 6 × 4 或 5–8。"),
        Progress => (
            "On this device: {stages} of 7 stages answered, {right} of {answers} answers right.",
            "本设备上：7 步中已回答 {stages} 步，{answers} 次回答中答对 {right} 次。",
        ),
        Reset => ("Reset the tally", "清零记录"),
        AskClass => ("Ask the class", "向全班提问"),
        Reveal => ("Reveal (R)", "揭晓答案（R）"),
        AnswerIs => ("The answer:", "答案："),
        ExTitle => ("Check yourself", "自我检测"),
        ExDot => (
            "By hand, with the first {dk} numbers of this query and of the key “{key}”: q = {q}, k = {k}. What is their dot product q·k (the raw score, before any division)?",
            "手算：取这个查询和键“{key}”的前 {dk} 个分量，q = {q}，k = {k}。它们的点积 q·k（原始分数，还没有做任何除法）是多少？",
        ),
        ExDotSolution => ("q·k = {terms} = {dot}.", "q·k = {terms} = {dot}。"),
        ExScaled => (
            "By hand, with the first {dk} numbers of this query and of the key “{key}”: q = {q}, k = {k}. What is the scaled score q·k / √{dk}?",
            "手算：取这个查询和键“{key}”的前 {dk} 个分量，q = {q}，k = {k}。缩放后的分数 q·k / √{dk} 是多少？",
        ),
        ExScaledSolution => ("q·k = {terms} = {dot}; ÷ {sq} = {x}.", "q·k = {terms} = {dot}；÷ {sq} = {x}。"),
        ExWeight => (
            "Three scaled scores of this query, made from the first {w} numbers of q and of three keys (so not the map's numbers): {s}. What weight does a softmax over these three give the first one (key “{key}”)?",
            "这个查询的三个缩放后分数，由 q 和三个键的前 {w} 个分量算出（所以不是图上的数）：{s}。只对这三个分数做 softmax，第一个（键“{key}”）的权重是多少？",
        ),
        ExSize => (
            "X has a row per token and d_model columns. With {n} tokens and d_model = {d}, how many numbers does it hold?",
            "X 每个词元一行，共 d_model 列。有 {n} 个词元、d_model = {d} 时，X 一共有多少个数？",
        ),
        ExSizeSolution => ("{n} × {d} = {x}.", "{n} × {d} = {x}。"),
        ExCost => (
            "One head's queries Q_h = X · W_Q^h: X is {n} × {d}, W_Q^h is {d} × {dk}. How many multiply–adds does this product take?",
            "一个头的查询 Q_h = X · W_Q^h：X 是 {n} × {d}，W_Q^h 是 {d} × {dk}。这次矩阵乘法一共要做多少次乘加？",
        ),
        ExCostSolution => (
            "Each of Q_h's {n} × {dk} entries is a sum of {d} products: {n} × {dk} × {d} = {x}.",
            "Q_h 的 {n} × {dk} 个元素，每个都是 {d} 个乘积之和：{n} × {dk} × {d} = {x}。",
        ),
        ExCostWhole => (
            "Every head's queries at once, Q = X · W_Q: X is {n} × {d}, W_Q is {d} × {d}. How many multiply–adds does this product take?",
            "一次算出所有头的查询 Q = X · W_Q：X 是 {n} × {d}，W_Q 是 {d} × {d}。这次矩阵乘法一共要做多少次乘加？",
        ),
        ExCostWholeSolution => (
            "Each of Q's {n} × {d} entries is a sum of {d} products: {n} × {d} × {d} = {x}.",
            "Q 的 {n} × {d} 个元素，每个都是 {d} 个乘积之和：{n} × {d} × {d} = {x}。",
        ),
        ExWeightSolution => (
            "exp of each: {e}; their sum is {sum}; {e1} ÷ {sum} = {x}.",
            "各自取 exp：{e}；和为 {sum}；{e1} ÷ {sum} = {x}。",
        ),
        ExMix => (
            "Weights a = {a} over three values whose first entries are {v}. What is the first entry of the output a·V?",
            "权重 a = {a}，三个值向量的第一个分量为 {v}。输出 a·V 的第一个分量是多少？",
        ),
        ExMixSolution => ("{terms} = {x}.", "{terms} = {x}。"),
        ExTolerance => ("Answers within ±{tol} count as right.", "误差在 ±{tol} 以内算对。"),
        ExExact => ("Give the exact number.", "请给出准确的数。"),
        ExCheck => ("Check", "检查"),
        ExNew => ("New numbers", "换一组数"),
        ExRight => ("Right: {x}.", "答对了：{x}。"),
        ExWrong => ("Not quite: it is {x}.", "不太对：答案是 {x}。"),
        ExNone => ("This needs at least three tokens.", "至少需要三个词元。"),
    }
}
