//! Messages of the lesson, the lab and the controls.

super::catalogue! {
    /// A message of the lesson. Some hold placeholders such as `{n}`, filled with [`super::fill`].
    pub enum Msg {
        AppTitle => ("Attention Lab", "自注意力实验室"),
        Tagline => (
            "Run self-attention, the heart of every Transformer, step by step on your own sentence, and see every number it computes.",
            "在你自己的句子上一步一步运行自注意力（每个 Transformer 的核心），看清它算出的每一个数。",
        ),
        /// The label of the language switch: the *other* language's name.
        SwitchLanguage => ("中文", "English"),
        ComputeError => ("Could not compute attention", "无法计算注意力"),
        Computing => (
            "Computing in the background… the figures shown are the last result until it arrives.",
            "正在后台计算……新结果出来之前，显示的仍是上一次的结果。",
        ),
        PanicNotice => (
            "Something went wrong inside the page and it stopped. Please reload. Details:",
            "页面内部出错并已停止，请刷新。详情：",
        ),

        ControlsTitle => ("Settings", "设置"),
        Sentence => ("Sentence", "句子"),
        KvSentence => ("Second sentence (keys and values)", "第二个句子（键和值）"),
        TokenCount => ("{n} tokens", "{n} 个词元"),
        TokenCountOne => ("1 token", "1 个词元"),
        ErrNoTokens => (
            "Type at least one word. The heatmaps keep showing the last sentence.",
            "请至少输入一个词。热力图仍显示上一个句子。",
        ),
        ErrTooManyTokens => (
            "{n} tokens is more than the {max} the heatmaps can show. The last sentence stays.",
            "共 {n} 个词元，超过了热力图能显示的 {max} 个。仍显示上一个句子。",
        ),
        ErrSeed => ("The seed must be a whole number from 0 to {max}.", "随机种子必须是 0 到 {max} 之间的整数。"),
        DModel => ("Model width d_model", "模型维度 d_model"),
        Heads => ("Heads", "头数"),
        Seed => ("Seed", "随机种子"),
        NewSeed => ("New random weights", "换一组随机权重"),
        Positional => ("Positional encoding", "位置编码"),
        Mask => ("Mask", "掩码"),
        MaskNone => ("none", "无"),
        MaskCausal => ("causal (no peeking ahead)", "因果（不能偷看后文）"),
        MaskNotInCross => (
            "No causal mask in cross-attention: the two sentences do not share one timeline, and standard encoder–decoder models give it none (at most a mask for padding).",
            "交叉注意力不使用因果掩码：两个句子并不共享同一条时间线，标准的编码器–解码器模型也不给它加因果掩码（最多只有填充掩码）。",
        ),
        Kind => ("Attention", "注意力类型"),
        KindSelf => ("self-attention", "自注意力"),
        KindCross => ("cross-attention", "交叉注意力"),
        Scaling => ("Scaling ÷√d_k (divide the scores by √d_k)", "缩放 ÷√d_k（分数除以 √d_k）"),
        Temperature => ("Softmax temperature T", "softmax 温度 T"),

        Prev => ("← Previous", "← 上一步"),
        Next => ("Next →", "下一步 →"),
        StepOf => ("Step {i} of {n}", "第 {i} 步，共 {n} 步"),
        StageNav => ("Stages of the computation", "计算步骤"),
        Head => ("Head", "头"),
        Notice => ("What to notice:", "留意："),
        HoverHint => (
            "Hover over a cell (or tap it) to see the numbers behind it.",
            "把鼠标移到格子上（或点一下），查看它背后的数字。",
        ),

        NameInput => ("Input", "输入"),
        NameProjection => ("Q, K, V", "Q、K、V"),
        NameScores => ("Scores QKᵀ", "分数 QKᵀ"),
        NameScaling => ("÷ √d_k", "÷ √d_k"),
        NameSoftmax => ("Softmax", "Softmax"),
        NameOutput => ("Weighted sum", "加权求和"),
        NameMultiHead => ("Multi-head", "多头注意力"),
        ExplainInput => (
            "A sentence becomes a matrix. Every token gets a vector of d_model numbers, its embedding, and the same word always gets the same vector. Attention by itself cannot tell order, so a positional encoding (sines and cosines of many frequencies) is added to mark where each token sits.",
            "句子首先变成一个矩阵：每个词元（token）对应一个 d_model 维的向量，即它的嵌入（embedding）；同一个词永远得到同一个向量。注意力本身分不清先后，所以还要加上位置编码（多种频率的正弦和余弦），标记每个词元所在的位置。",
        ),
        ExplainInputOff => (
            "A sentence becomes a matrix. Every token gets a vector of d_model numbers, its embedding, and the same word always gets the same vector. Attention by itself cannot tell order; a positional encoding (sines and cosines of many frequencies) is what marks where each token sits, and it is switched off here, so X = E and the order of the words is invisible to every step that follows.",
            "句子首先变成一个矩阵：每个词元对应一个 d_model 维的向量，即它的嵌入；同一个词永远得到同一个向量。注意力本身分不清先后；标记每个词元位置的是位置编码（多种频率的正弦和余弦），而它在这里被关掉了，所以 X = E，后面的每一步都看不到词的顺序。",
        ),
        ExplainInputLearned => (
            "A sentence becomes a matrix. Every token gets a vector of d_model numbers, its embedding, and the same token always gets the same vector. Attention by itself cannot tell order, so each position p also has a vector of its own, P_p, learned in training just like the embeddings (not a formula), and it is added to the token's embedding.",
            "句子首先变成一个矩阵：每个词元对应一个 d_model 维的向量，即它的嵌入；同一个词元永远得到同一个向量。注意力本身分不清先后，所以每个位置 p 还有一个自己的向量 P_p：它和嵌入一样是训练学出来的（而不是由公式算出），加到词元的嵌入上。",
        ),
        ExplainInputPretrained => (
            "A sentence becomes a matrix. Every token gets a vector of d_model numbers, its embedding. Attention by itself cannot tell order, so BERT-style models add a learned vector for each position p (P_p, learned in training, not a formula) and a segment embedding (which sentence of a pair the token belongs to), then normalise the sum with LayerNorm.",
            "句子首先变成一个矩阵：每个词元对应一个 d_model 维的向量，即它的嵌入。注意力本身分不清先后，所以 BERT 这类模型给每个位置 p 加上一个学到的向量 P_p（由训练学出，不是公式），再加上片段嵌入（表示词元属于一对句子中的哪一句），然后对总和做层归一化（LayerNorm）。",
        ),
        ExplainProjection => (
            "Think of a library. Each token writes a query (what it is looking for), a key (the label on its spine that others match against) and a value (the content it hands over when picked). All three come from the same X, multiplied by three weight matrices W_Q, W_K and W_V: a head's queries and keys have d_k columns each (they must match, to be multiplied), its values d_v columns, and here, as almost everywhere, d_v = d_k. Training is what gives these matrices their meaning; the note on this stage says whether the ones shown are pretrained, your own, or random.",
            "把它想象成图书馆：每个词元写下一个查询（query，我要找什么）、一个键（key，书脊上的标签，供别人匹配）和一个值（value，被选中时交出的内容）。三者都来自同一个 X，分别乘以三个权重矩阵 W_Q、W_K、W_V：每个头的查询和键各有 d_k 列（二者要做点积，列数必须相同），值有 d_v 列；这里和几乎所有模型一样，d_v = d_k。这些矩阵的意义来自训练；本步骤的说明会告诉你这里显示的是预训练权重、你的模型的权重，还是随机权重。",
        ),
        ExplainScores => (
            "Every query is compared with every key by a dot product, S_ij = q_i · k_j. A large score means token i is asking for what token j offers. One matrix product gives all n × n pairs at once, which is also why the cost of attention grows with the square of the length.",
            "每个查询都和每个键做点积：S_ij = q_i · k_j，得到注意力分数（attention score）。分数大，说明第 i 个词元要找的正是第 j 个词元能提供的。一次矩阵乘法就得到全部 n × n 对，这也正是注意力的开销随序列长度平方增长的原因。",
        ),
        ExplainScaling => (
            "A dot product adds up d_k products; if the factors are independent with mean 0 and variance 1, the sum has variance d_k, so scores grow like √d_k. Dividing by √d_k brings their spread back to order 1 whatever the head width, before the softmax sees them. Of order 1, not exactly 1: real entries are not exactly of variance 1{why}, and the spread measured below says what it is here.",
            "点积是 d_k 个乘积之和；若各因子相互独立、均值为 0、方差为 1，和的方差就是 d_k，所以分数的典型大小（标准差）按 √d_k 增长。除以 √d_k 可以在分数进入 softmax 之前，把它们的离散程度拉回到 1 的量级，与每个头的维度无关。说的是量级而不是恰好为 1：实际的分量方差并不恰好是 1{why}，下面测得的标准差给出了这里的实际值。",
        ),
        ScalingWhyPe => (
            " (with positional encoding added, the entries of X have a variance nearer 1.5)",
            "（加上位置编码后，X 的分量方差更接近 1.5）",
        ),
        ExplainSoftmax => (
            "Softmax turns each row of scores into weights that are non-negative and add up to 1: take the exponential of each score, then divide by the row's total. Each row of A is thus a probability distribution over the keys: how much of its attention the query gives each one. Under a causal mask the future keys are set to −∞ first, so their weight is exactly 0. Every other weight is above 0 in exact arithmetic; in float32 a weight far below its row's largest can round to exactly 0, and the readings then print 0 %.",
            "softmax 把每一行注意力分数变成非负、总和为 1 的注意力权重（attention weights）：先对每个分数取指数，再除以这一行的总和。于是 A 的每一行都是键上的一个概率分布：这个查询把多少注意力分给每个键。使用因果掩码（causal mask）时，未来位置的键会先被设为 −∞，因此权重恰好为 0。按精确的算术，其余权重都大于 0；但在 float32 中，远小于本行最大值的权重可能被舍入成恰好 0，这时文字说明会显示 0%。",
        ),
        ExplainOutput => (
            "Each output row is an average of the value rows, weighted by that query's attention: O = A · V. A token that attends mostly to one other token ends up carrying mostly that token's value.",
            "输出的每一行都是各个值向量的加权平均，权重就是该查询的注意力权重：O = A · V。如果一个词元的注意力主要集中在另一个词元上，它的输出也就主要是那个词元的值向量。",
        ),
        ExplainMultiHead => (
            "Several heads run side by side, each on its own d_k columns of Q, K and V, so each can pick up a different kind of relation. Their outputs are placed next to each other (concatenated) and mixed back into d_model columns by W_O.",
            "多个头并排运行，每个头只使用 Q、K、V 中属于自己的 d_k 列，因此各自能捕捉不同类型的关系。各头的输出并排拼接起来，再由 W_O 混合回 d_model 列。",
        ),
        NoticeInput => (
            "Switch the positional encoding off: “{tok}”, which occurs more than once here (rows {rows}), then gets identical rows in X. Repeated means the exact same string: with random weights every string gets its own embedding, so “The” and “the” are different tokens with different rows.",
            "关掉位置编码：这里重复出现的“{tok}”（第 {rows} 行）在 X 中的行就会变得一模一样。这里的重复指字符串完全相同：使用随机权重时，每个字符串都有自己的嵌入，所以英文的“The”和“the”是两个不同的词元，行也不同。",
        ),
        NoticeInputNoRepeat => (
            "No token occurs twice in this sentence. Type one that repeats a word (say “the cat saw the dog”) and switch the positional encoding off: the repeated word's rows in X become identical. Repeated means the exact same string: “The” and “the” are different tokens.",
            "这个句子里没有重复的词元。输入一个有重复词的句子（例如“小猫看见了小狗”，其中“小”出现了两次），再关掉位置编码：重复的词在 X 中的行会变得一模一样。这里的重复指字符串完全相同：英文的“The”和“the”是两个不同的词元。",
        ),
        NoticeInputOff => (
            "With the positional encoding off, the rows of “{tok}” (rows {rows}) are identical in X, so nothing after this step can tell them apart by where they stand. Switch it back on and they differ.",
            "位置编码关闭后，“{tok}”的几行（第 {rows} 行）在 X 中完全相同，所以之后的任何一步都无法按位置把它们区分开。重新打开位置编码，它们就不同了。",
        ),
        NoticeInputOffNoRepeat => (
            "With the positional encoding off, a word that occurs twice would get identical rows in X; no token occurs twice in this sentence, so type one that repeats a word to see it.",
            "位置编码关闭后，出现两次的词在 X 中的行会完全相同；这个句子里没有重复的词元，输入一个有重复词的句子就能看到。",
        ),
        NoticeInputTrained => (
            "The model was trained with this encoding added, so there is no switch for it here: a repeated token gets different rows in X because each position adds its own code.",
            "模型训练时就加了这个编码，所以这里没有关掉它的开关：重复出现的词元在 X 中的行各不相同，因为每个位置加上的是自己的编码。",
        ),
        NoticeInputRotary => (
            "Nothing is added for positions here, so a repeated token gets identical rows in X. This model tells positions apart inside attention: every head's Q and K are rotated by their position (the next stage shows them rotated), so a score depends, besides the two tokens themselves, on how far apart they are.",
            "这里不为位置加任何东西，所以重复出现的词元在 X 中的行完全相同。这个模型在注意力内部区分位置：每个头的 Q 和 K 都按位置旋转（下一步显示的是旋转之后的），所以分数除了取决于两个词元本身，还取决于它们相隔多远。",
        ),
        ExplainInputRotary => (
            "A sentence becomes a matrix: every token gets a vector of d_model numbers, its embedding, and nothing is added for its position. This model was trained with rotary positions (RoPE): in every layer each head's queries and keys are turned, pair of columns by pair of columns, by an angle that grows with the position, so a score depends, besides the two tokens themselves, on how far apart they are, not on where they stand.",
            "句子首先变成一个矩阵：每个词元对应一个 d_model 维的向量，即它的嵌入，不为位置加任何东西。这个模型训练时用的是旋转位置编码（RoPE）：在每一层，每个头的查询和键都按列成对地旋转一个随位置增大的角度，所以分数除了取决于两个词元本身，还取决于它们相隔多远，而不取决于它们的绝对位置。",
        ),
        NoticeInputLearned => (
            "These positions are learned vectors, one per position, that the model was trained with, so there is no switch for them here: a repeated token gets different rows in X because each position adds its own vector.",
            "这里的位置是学到的向量，每个位置一个，模型就是带着它们训练的，所以这里没有关掉它们的开关：重复出现的词元在 X 中的行各不相同，因为每个位置加上的是自己的向量。",
        ),
        NoticeProjection => (
            "The three rows of one token differ: its query is used to search, its key to be found, its value to be passed on, so a token can look for something quite unlike itself. The columns are shared out among the heads: head i reads columns (i−1)·d_k + 1 to i·d_k, with d_k = d_model / h for h heads. Heads, rows and columns are all counted from 1.",
            "同一个词元的三行各不相同：查询用来搜索，键用来被找到，值用来传递，所以一个词元可以去找和自己很不一样的东西。这些列会分给各个头：第 i 个头读取第 (i−1)·d_k + 1 到 i·d_k 列，其中 d_k = d_model / h（共 h 个头）。头、行和列都从 1 开始编号。",
        ),
        HintSentence => (
            "What attention runs on: each word and punctuation mark (in Chinese, each character) becomes one token.",
            "注意力要处理的文本：每个词和标点（中文则是每个字）都成为一个词元。",
        ),
        HintSentencePretrained => (
            "What attention runs on: the model's WordPiece tokenizer cuts it into pieces of its vocabulary (a long word may become several, marked ##), adds [CLS] at the start and [SEP] at the end, and turns a piece it cannot spell into [UNK].",
            "注意力要处理的文本：模型的 WordPiece 分词器把它切成词表里的片段（一个长词可能被切成几段，后续片段标有 ##），在开头加上 [CLS]、结尾加上 [SEP]，拼不出的片段变成 [UNK]。",
        ),
        HintSentenceUnigram => (
            "What attention runs on: the model's SentencePiece tokenizer cuts it into the most probable pieces of its vocabulary (▁ stands for the start of the text or a space before a word; Chinese pieces are one or more characters), adds <s> at the start and </s> at the end, and turns a character it has no piece for into <unk>.",
            "注意力要处理的文本：模型的 SentencePiece 分词器把它切成词表里概率最高的一组片段（▁ 代表文本的开头或词前的空格；中文片段是一个或几个字），在开头加上 <s>、结尾加上 </s>，没有片段能表示的字符变成 <unk>。",
        ),
        HintSentenceYours => (
            "What attention runs on: your model reads only the tokens of the task it learned, separated by spaces, at most as many as its positions.",
            "注意力要处理的文本：你的模型只读它所学任务里的词元，词元之间用空格隔开，数量不能超过它的位置数。",
        ),
        HintDModel => (
            "How many numbers describe each token: the width of every row of X.",
            "每个词元用多少个数来描述，也就是 X 每一行的宽度。",
        ),
        HintHeads => (
            "How many heads share those numbers: each head works on d_k = d_model / h of them.",
            "有多少个头来分这些数：每个头处理其中 d_k = d_model / h 个。",
        ),
        HintSeed => (
            "The random weights are drawn from this number: the same seed gives the same weights on every computer.",
            "随机权重由这个数生成：同一个种子在任何电脑上都得到同样的权重。",
        ),
        HintPositional => (
            "Adds each position's sine–cosine code to its token, so that word order can matter.",
            "把每个位置的正弦–余弦编码加到对应的词元上，让词序能起作用。",
        ),
        HintScaling => (
            "Divides the scores by √d_k before the softmax, keeping their spread of order 1 whatever d_k (key S).",
            "在 softmax 之前把分数除以 √d_k，让它们的离散程度无论 d_k 多大都保持在 1 的量级（快捷键 S）。",
        ),
        HintMask => (
            "Causal: each token may look only at itself and the tokens before it, as when a model writes text.",
            "因果：每个词元只能看自己和它前面的词元，就像模型逐个词元生成文本时那样。",
        ),
        HintKind => (
            "Self: the sentence reads itself. Cross: its queries read the keys and values of a second sentence.",
            "自注意力：句子读它自己。交叉注意力：它的查询去读第二个句子的键和值。",
        ),
        HintTemperature => (
            "The scores are divided by T before the softmax: below 1 every row sharpens, above 1 it flattens.",
            "softmax 之前分数会除以 T：T 小于 1 时每一行更尖锐，大于 1 时更平缓。",
        ),
        TokensCjk => (
            "Why is every Chinese character a token? Chinese leaves no spaces between words, so with random weights this site cuts the sentence into single characters, and each punctuation mark is a token too: no dictionary is needed and every character is treated alike. Real models cut text into pieces from a vocabulary learnt from data; the pretrained model's WordPiece tokenizer also splits Chinese characters one by one, but adds [CLS] at the start and [SEP] at the end, and a character missing from its vocabulary becomes [UNK].",
            "为什么每个汉字都是一个词元？中文的词与词之间没有空格，所以使用随机权重时，本站把句子切成单个汉字，每个标点也算一个词元：这样不需要词典，每个字都一视同仁。真实的模型按从数据中学到的词表来切分文本；预训练模型所用的 WordPiece 分词器同样把汉字逐个切开，但会在开头加上 [CLS]、在结尾加上 [SEP]，词表里没有的字会变成 [UNK]。",
        ),
        NoticeScores => (
            "Hover a cell: the score is a sum of d_k products, and a few large terms usually decide it.",
            "把鼠标移到格子上：分数是 d_k 个乘积之和，往往由少数几个大项决定。",
        ),
        NoticeScoresDk1 => (
            "With d_k = 1 each head has a single column, so every score is one product of two numbers, q·k = q₁k₁: its sign and size are those of the two numbers.",
            "d_k = 1 时每个头只有一列，所以每个分数只是两个数的乘积 q·k = q₁k₁：它的正负和大小完全由这两个数决定。",
        ),
        NoticeScaling => (
            "Both maps share one colour scale, so the scaled one looks paler: its numbers are √d_k times smaller.",
            "两张图共用一个色标，所以缩放后的那张更淡：它的数值只有原来的 1/√d_k。",
        ),
        NoticeScalingDk1 => (
            "Here d_k = 1, so √d_k = 1 and the two maps are the same: dividing by 1 changes nothing. Give each head more columns (a wider d_model or fewer heads) to see the division shrink the scores.",
            "这里 d_k = 1，所以 √d_k = 1，两张图完全相同：除以 1 什么也不改变。让每个头有更多的列（更大的 d_model 或更少的头），就能看到除法把分数缩小。",
        ),
        NoticeScalingOff => (
            "With “Scaling ÷√d_k” off, the scores reach the softmax without ÷√d_k: the larger d_k, the wider they spread. Switch it on (the badge above, the settings, or the S key) to see them divided.",
            "“缩放 ÷√d_k”关闭时，分数不除以 √d_k 就进入 softmax：d_k 越大，分数越分散。打开它（用上方的开关按钮、设置或 S 键）即可看到除以 √d_k 之后的分数。",
        ),
        NoticeSoftmax => (
            "Click a row to see that query's weights as bars. Switch “Scaling ÷√d_k” off (the badge above, the settings, or the S key) and the rows sharpen.",
            "点击某一行，下方用柱状图显示该查询的注意力权重。把“缩放 ÷√d_k”关掉（用上方的开关按钮、设置或 S 键），各行会变得更尖锐。",
        ),
        NoticeSoftmaxUnscaled => (
            "Scaling is off, so these rows are sharper than with ÷√d_k: switch “Scaling ÷√d_k” back on (the badge above, the settings, or the S key) and they soften.",
            "缩放已关闭，所以这些行比除以 √d_k 时更尖锐：把“缩放 ÷√d_k”重新打开（用上方的开关按钮、设置或 S 键），它们会变平缓。",
        ),
        NoticeSoftmaxDk1 => (
            "Click a row to see that query's weights as bars. Here d_k = 1, so √d_k = 1: switching “Scaling ÷√d_k” on or off changes nothing in these rows.",
            "点击某一行，下方用柱状图显示该查询的注意力权重。这里 d_k = 1，所以 √d_k = 1：打开或关闭“缩放 ÷√d_k”，这些行都不会改变。",
        ),
        NoticeSoftmaxOneKey => (
            "With a single key, every row is one weight of exactly 1, whatever the scores: the softmax has nothing to share out. Give the keys more tokens to see the weights divide.",
            "只有一个键时，不论分数是多少，每一行都只有一个恰好为 1 的权重：softmax 没有东西可分。让提供键的句子多几个词元，就能看到权重被分开。",
        ),
        NoticeOutput => (
            "Hover an output cell to see which value rows it was made from, and how much each gave.",
            "把鼠标移到输出格子上，看看它由哪些值向量组成，各占多少。",
        ),
        NoticeMultiHead => (
            "Even with random weights the heads look different, because each reads its own d_k columns; what each looks at means nothing until training shapes it, and training does not give every head a job (in trained models some end up nearly idle).",
            "即使权重是随机的，各个头的模式也互不相同，因为每个头读取的是自己的 d_k 列；在训练塑造它们之前，每个头看向哪里都没有意义，而训练也不会给每个头都分派任务（训练好的模型里有些头几乎闲置）。",
        ),
        NoticeMultiHeadOne => (
            "With a single head there is nothing to compare: Concat is that head's output itself, and W_O only mixes its columns. Choose more heads in the settings to see them differ.",
            "只有一个头时没有可比较的：拼接结果就是这个头自己的输出，W_O 只是把它的各列混合起来。在设置里选择更多的头，就能看到它们的不同。",
        ),
        NoticeMultiHeadPretrained => (
            "These heads are what pretraining made of them, and not every one does something you can name: some follow a clear pattern, others spread out or rest most of their weight on {first} or {last}. The model view shows every head of every layer of all-MiniLM-L6-v2.",
            "这些头是预训练塑造的结果，并不是每个头都在做一件说得出名字的事：有的遵循清晰的模式，有的分散开，有的把大部分权重放在 {first} 或 {last} 上。模型视图展示了 all-MiniLM-L6-v2 每一层的每一个头。",
        ),
        NoticeMultiHeadYours => (
            "These heads are what your training run made of them: one may carry the task while another does little. Compare them here, or train again with another head count.",
            "这些头是你的训练塑造的结果：可能一个头承担了任务，另一个几乎什么也不做。可以在这里比较它们，或者换一个头数重新训练。",
        ),

        CodeTitle => ("The same step in PyTorch", "用 PyTorch 写这一步"),
        CodeCopy => ("Copy the code", "复制代码"),
        CodeCopied => ("Copied.", "已复制。"),
        CodeCopyRefused => ("The browser refused; select the code and copy it by hand.", "浏览器拒绝了复制；请选中代码后手动复制。"),
        CodeMaskNote => (
            "masked_fill with a large negative number is the usual way to write the mask. The −1e9 written here works in float32 but does not fit float16 (whose largest finite value is 65504), so code that must also run in float16 fills in the type's lowest value, torch.finfo(scores.dtype).min. A finite fill differs from −∞ in one case only: a row whose keys are all masked. With a finite fill that row gets equal weights on every key; with −∞ it would be 0/0, NaN (not a number). This page follows the ONNX Attention operator's definition: such a row gets zero weights and a zero output, as PyTorch's scaled_dot_product_attention also gives since version 2.5.",
            "用 masked_fill 填入一个很大的负数是写掩码的常见做法。这里写的 −1e9 在 float32 下可行，但放不进 float16（它能表示的最大有限值是 65504），所以需要兼容 float16 的代码填入该类型的最小值 “torch.finfo(scores.dtype).min”。填入有限的数与 −∞ 只在一种情况下不同：一行的所有键都被屏蔽。填入有限的数时，这一行会把权重平均分给每个键；用 −∞ 则会得到 0/0，即 NaN（非数）。本页面遵循 ONNX Attention 算子的定义：这样的行权重全为 0，输出也为 0；PyTorch 的 scaled_dot_product_attention 从 2.5 版起也是如此。",
        ),

        MatEmbedding => ("Embedding E", "嵌入 E"),
        MatPositional => ("Positional encoding PE", "位置编码 PE"),
        MatInput => ("Input X", "输入 X"),
        MatQueries => ("Queries Q", "查询 Q"),
        MatKeys => ("Keys K", "键 K"),
        MatValues => ("Values V", "值 V"),
        MatScores => ("Scores S", "注意力分数 S"),
        MatScaled => ("Scaled S/√d_k", "缩放后的分数 S/√d_k"),
        MatScaledOff => ("Not divided: S (scaling off)", "未做除法：S（缩放已关闭）"),
        MatWeights => ("Weights A", "注意力权重 A"),
        MatHeadOutput => ("Output O", "输出 O"),
        MatConcat => ("Concat", "拼接"),
        MatOutput => ("Output · W_O", "输出 · W_O"),

        PositionalOff => ("Positional encoding is off: X = E.", "位置编码已关闭：X = E。"),
        ScalingOff => (
            "“Scaling ÷√d_k” is off, so nothing is divided: both maps are the same.",
            "“缩放 ÷√d_k”已关闭，没有做除法：两张图完全相同。",
        ),
        Spread => ("std {std}, range {min} to {max}", "标准差 {std}，范围 {min} 到 {max}"),
        RowSums => (
            "Every row sums to 1 (largest deviation {dev}).",
            "每一行之和都为 1（最大偏差 {dev}）。",
        ),
        QueryRow => ("Query", "查询"),
        LargestTerms => ("largest terms", "最大的几项"),
        Contributions => ("largest contributions", "贡献最大的几项"),
        Masked => ("masked (−∞ before softmax, weight 0)", "已被掩码屏蔽（softmax 前为 −∞，权重为 0）"),
        RowChart => ("Weights of query “{tok}”", "查询 “{tok}” 的权重"),

        SaturationTitle => ("Saturation lab: why divide by √d_k?", "饱和实验：为什么要除以 √d_k？"),
        SaturationExplain => (
            "Here q and k are random vectors whose entries have variance 1, the assumption of the classic argument. Their dot product adds d_k independent terms of variance 1, so Var(q·k) = d_k. Turn scaling off and drag d_k up: the scores spread out, each softmax row collapses onto its largest entry (the softmax saturates), and the gradient that can flow back through the softmax fades to zero (it vanishes).",
            "这里的 q 和 k 是各分量方差为 1 的随机向量，正是经典推导的假设。它们的点积是 d_k 个方差为 1 的独立项之和，所以 Var(q·k) = d_k。关闭缩放并把 d_k 往右拖：分数越拉越开，softmax 的每一行都塌缩到最大的那一项上（进入饱和区），能穿过 softmax 回传的梯度也逐渐趋于零（梯度消失）。",
        ),
        SaturationBand => (
            "With scaling on, the rows stay about as soft at every d_k: from d_k = 1 to 1024 the typical top weight of this sample stays between {lo} and {hi} (the sample's noise), while without scaling it climbs to {top}.",
            "打开缩放后，各行在任何 d_k 下都差不多一样平缓：d_k 从 1 到 1024，这个样本的典型最大权重始终在 {lo} 到 {hi} 之间（那是样本本身的噪声），而不缩放时它会升到 {top}。",
        ),
        SaturationBump => (
            "One curve does something unexpected: at d_k = {from} to {to} the unscaled gradient lies above the scaled one, and only then collapses. The softmax's Jacobian is largest not for a uniform row but for a row split between two keys, and slightly sharper scores first push a row towards such a split.",
            "有一条曲线出人意料：d_k 为 {from} 到 {to} 时，不缩放的梯度位于缩放曲线之上，之后才急剧下降。softmax 雅可比矩阵的范数最大的情形不是均匀的一行，而是权重平分给两个键的一行；分数的差距稍稍拉大时，一行会先朝这种两键平分的状态靠近。",
        ),
        SaturationNoBump => (
            "For this many tokens the unscaled gradient stays below the scaled one at every d_k of this sample.",
            "在这个词元数下，这个样本中不缩放的梯度在每个 d_k 下都低于缩放后的梯度。",
        ),
        SaturationNoBumpTwo => (
            "With two tokens the unscaled gradient can only fall: for two keys the softmax's Jacobian is largest at an even split, which is the uniform row itself.",
            "只有两个词元时，不缩放的梯度只会下降：两个键的 softmax 雅可比矩阵在权重平分时最大，而平分就是均匀的那一行本身。",
        ),
        SaturationOneToken => (
            "With a single token each row is one weight of exactly 1 whatever the scores, so every curve below is flat and no gradient gets through: type a longer sentence to see saturation.",
            "只有一个词元时，不论分数是多少，每一行都只有一个恰好为 1 的权重，所以下面每条曲线都是平的，也没有梯度能回传：输入一个更长的句子，才能看到饱和。",
        ),
        SaturationNorm => (
            "The gradient shown is the Frobenius norm of the softmax's Jacobian (the square root of the sum of its squared entries) for the median row; the dashed line is a uniform row's value, √(1/n − 1/n²).",
            "图中的梯度是中位数那一行的 softmax 雅可比矩阵的 Frobenius 范数（各元素平方和的平方根）；虚线是均匀的一行的取值 √(1/n − 1/n²)。",
        ),
        SaturationDk => ("Head width d_k", "每个头的维度 d_k"),
        ReadoutStd => ("Score std (√d_k = {sqrt})", "分数标准差（√d_k = {sqrt}）"),
        ReadoutMaxWeight => ("Top weight of a typical row (median)", "典型行的最大权重（中位数）"),
        ReadoutEntropy => ("Mean entropy (uniform: ln n = {logn})", "平均熵（均匀分布：ln n = {logn}）"),
        ReadoutGrad => ("Gradient that gets through (softmax Jacobian norm, typical row)", "可回传的梯度（softmax 雅可比矩阵的范数，典型行）"),
        ChartStd => ("Score std against d_k (unscaled follows √d_k)", "分数标准差随 d_k 变化（不缩放时按 √d_k 增长）"),
        ChartEntropy => ("Mean entropy ÷ ln n against d_k (1 = uniform, 0 = one-hot)", "平均熵 ÷ ln n 随 d_k 变化（1 为均匀，0 为独热）"),
        ChartMaxWeight => ("Typical top weight against d_k", "典型最大权重随 d_k 变化"),
        ChartGrad => ("Gradient that gets through against d_k (dashed: a uniform row)", "可回传的梯度随 d_k 变化（虚线：均匀的一行）"),
        SeriesScaled => ("scaled ÷√d_k", "缩放 ÷√d_k"),
        SeriesUnscaled => ("not scaled", "不缩放"),
        SeriesCurrent => ("current d_k", "当前 d_k"),
        SaturationRow => ("Weights of one row (query 1)", "其中一行的权重（第 1 个查询）"),
    }
}
