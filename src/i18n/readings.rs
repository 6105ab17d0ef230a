//! Messages of the plain readings: what the numbers of the stage on screen say, in words
//! (filled in by `crate::reading` from the live trace).

super::catalogue! {
    /// A template of a stage's plain reading.
    pub enum ReadingMsg {
        Title => ("In words:", "用文字说："),
        Input => (
            "Row {i} of X is “{tok}”: {d} numbers, its token's embedding plus the code of position p = {p} (counted from 0, as in the formula). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：{d} 个数，即这个词元的嵌入加上位置 p = {p} 的编码（与公式一样从 0 数起），开头是 {first} …",
        ),
        InputNoPosition => (
            "Row {i} of X is “{tok}”: {d} numbers, its token's embedding alone (positional encoding is off). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：{d} 个数，只有这个词元的嵌入（位置编码已关闭），开头是 {first} …",
        ),
        InputPretrained => (
            "Row {i} of X is “{tok}”: the {d} numbers this layer reads (in layer 1, its learned token and position embeddings added up and normalised by LayerNorm; in later layers, the previous layer's output). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：这一层读取的 {d} 个数（第 1 层是它学到的词元嵌入与位置嵌入之和再经 LayerNorm；之后各层是前一层的输出），开头是 {first} …",
        ),
        InputYoursSinusoidal => (
            "Row {i} of X is “{tok}”: the {d} numbers this layer reads (in layer 1, the learned embedding of the token plus the sinusoidal code of position p = {p}, counted from 0, which the model was trained with; in layer 2, that plus layer 1's attention output, and its MLP's if it has one). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：这一层读取的 {d} 个数（第 1 层是这个词元学到的嵌入加上位置 p = {p} 的正弦编码，p 从 0 数起，模型训练时就用它；第 2 层再加上第 1 层的注意力输出，有 MLP 时还要加上 MLP 的输出），开头是 {first} …",
        ),
        InputYoursRotary => (
            "Row {i} of X is “{tok}”: the {d} numbers this layer reads (in layer 1, the learned embedding of the token alone: this model adds nothing for position p = {p}, and turns its queries and keys by it instead; in layer 2, that plus layer 1's attention output, and its MLP's if it has one). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：这一层读取的 {d} 个数（第 1 层只有这个词元学到的嵌入：这个模型不为位置 p = {p} 加任何东西，而是按位置旋转查询和键；第 2 层再加上第 1 层的注意力输出，有 MLP 时还要加上 MLP 的输出），开头是 {first} …",
        ),
        InputYours => (
            "Row {i} of X is “{tok}”: the {d} numbers this layer reads (in layer 1, the learned embedding of the token plus that of position p = {p}, counted from 0; in layer 2, that plus layer 1's attention output, and its MLP's if it has one). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：这一层读取的 {d} 个数（第 1 层是这个词元学到的嵌入加上位置 p = {p} 学到的嵌入，p 从 0 数起；第 2 层再加上第 1 层的注意力输出，有 MLP 时还要加上 MLP 的输出），开头是 {first} …",
        ),
        Projection => (
            "“{tok}” now has a query (what it looks for), a key (what it offers to the others) and a value (what it passes on when chosen). Head {h} reads columns {a}–{b} of each: with h = {heads} heads, d_k = d_model / h = {dm} / {heads} = {dk}.",
            "“{tok}”现在有一个查询（它要找什么）、一个键（它向其他词元展示什么）和一个值（被选中时它传递出去的内容）。第 {h} 个头读取每个矩阵的第 {a}–{b} 列：共 h = {heads} 个头，d_k = d_model / h = {dm} / {heads} = {dk}。",
        ),
        ProjectionCross => (
            "“{tok}” now has a query (what it looks for); the keys (what each token offers) and the values (what it passes on) come from the tokens of the second sentence. Head {h} reads columns {a}–{b} of each: with h = {heads} heads, d_k = d_model / h = {dm} / {heads} = {dk}.",
            "“{tok}”现在有一个查询（它要找什么）；键（每个词元展示什么）和值（它传递出去的内容）来自第二个句子的词元。第 {h} 个头读取每个矩阵的第 {a}–{b} 列：共 h = {heads} 个头，d_k = d_model / h = {dm} / {heads} = {dk}。",
        ),
        Scores => (
            "Row “{q}”: its largest score is with “{k}” ({s}), its smallest with “{k2}” ({s2}). Within a row, q is fixed, so the score follows each key's component along q, |k| cos θ (q · k = |q| |k| cos θ): a key scores higher the more it points along q, and a longer key raises the score only when it points the same way (cos θ > 0); pointing away (cos θ < 0), a longer key scores lower.",
            "“{q}”这一行：与“{k}”的分数最大（{s}），与“{k2}”的分数最小（{s2}）。同一行里 q 是固定的，所以分数取决于每个键在 q 方向上的分量 |k| cos θ（q · k = |q| |k| cos θ）：键越朝向 q，分数越高；键越长，只有在与 q 成锐角（cos θ > 0）时才会抬高分数；成钝角（cos θ < 0）时，键越长分数反而越低。",
        ),
        ScoresOne => (
            "Row “{q}” may see only “{k}” (the mask hides the rest): its score is {s}.",
            "“{q}”这一行只能看到“{k}”（其余的被掩码遮住）：分数是 {s}。",
        ),
        ScoresOnlyKey => (
            "Row “{q}” has a single key to see, “{k}”: its score is {s}.",
            "“{q}”这一行只有一个键可看，即“{k}”：分数是 {s}。",
        ),
        Scaling => (
            "Row “{q}”: its largest score, with “{k}”, becomes {s} ÷ {div} = {t}; every score is divided by the same √d_k = {div}, so the order stays and every gap is divided by {div} too.",
            "“{q}”这一行：与“{k}”的分数最大，它变成 {s} ÷ {div} = {t}；每个分数都除以同一个 √d_k = {div}，大小顺序不变，差距也都除以 {div}。",
        ),
        ScalingOff => (
            "Scaling is OFF: row “{q}” reaches the softmax without ÷√d_k; its largest score, with “{k}”, stays {s}.",
            "缩放已关闭：“{q}”这一行不除以 √d_k 就进入 softmax；它与“{k}”的分数最大，仍是 {s}。",
        ),
        Softmax => ("“{q}” takes {shares}.", "“{q}”读取的内容：{shares}。"),
        Share => ("{p} from “{k}”", "{p} 来自“{k}”"),
        /// Between the items of a list in a reading.
        ListSep => (", ", "，"),
        Rest => ("{p} from the other {m}", "其余 {m} 个词元共占 {p}"),
        Output => (
            "This head's output for “{q}” is {sum}: the value rows averaged with the weights of stage {stage}.",
            "这个头对“{q}”的输出 = {sum}：用第 {stage} 步的权重对各值向量取加权平均。",
        ),
        MoreTerms => ("+ … ({m} more terms)", "+ …（还有 {m} 项）"),
        MoreTermsOne => ("+ … (1 more term)", "+ …（还有 1 项）"),
        MultiHead => (
            "Row “{q}”, the key each head weighs most: {picks}. The heads read the sentence differently; concatenated and multiplied by W_O they give {dm} numbers per token again.",
            "“{q}”这一行，每个头权重最大的键：{picks}。各个头读这句话的方式不同；拼接后乘以 W_O，每个词元又回到 {dm} 个数。",
        ),
        MultiHeadOne => (
            "Row “{q}”: the single head weighs “{k}” most ({w}). Its output is the whole of Concat, and W_O maps it back to {dm} numbers per token.",
            "“{q}”这一行：唯一的头给“{k}”的权重最大（{w}）。它的输出就是整个拼接结果，W_O 再把它映射回每个词元 {dm} 个数。",
        ),
        MultiHeadSame => (
            "Row “{q}”: every head weighs “{k}” most ({picks}), so on this row the heads agree on the top key, though the rest of their weights may differ; concatenated and multiplied by W_O they give {dm} numbers per token again.",
            "“{q}”这一行：每个头都给“{k}”的权重最大（{picks}），所以在这一行上各头选中的首位键相同，不过其余的权重可能不同；拼接后乘以 W_O，每个词元又回到 {dm} 个数。",
        ),
        HeadPick => ("head {h} → “{k}” ({w})", "第 {h} 个头 → “{k}”（{w}）"),
        WeightCell => (
            "{p} of what “{q}” reads comes from “{k}”",
            "“{q}”读取的内容中有 {p} 来自“{k}”",
        ),
    }
}
