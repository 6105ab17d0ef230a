//! Messages of the plain readings: what the numbers of the stage on screen say, in words
//! (filled in by `crate::reading` from the live trace).

super::catalogue! {
    /// A template of a stage's plain reading.
    pub enum ReadingMsg {
        Title => ("In words:", "换成话说："),
        Input => (
            "Row {i} of X is “{tok}”: {d} numbers, its word's embedding plus the code of position {i}. They begin {first} …",
            "X 的第 {i} 行是“{tok}”：{d} 个数，即这个词的嵌入加上第 {i} 个位置的编码，开头是 {first} …",
        ),
        InputNoPosition => (
            "Row {i} of X is “{tok}”: {d} numbers, its word's embedding alone (positional encoding is off). They begin {first} …",
            "X 的第 {i} 行是“{tok}”：{d} 个数，只有这个词的嵌入（位置编码已关闭），开头是 {first} …",
        ),
        Projection => (
            "“{tok}” now has a query (what it looks for), a key (what it offers to the others) and a value (what it passes on when chosen). Head {h} reads columns {a}–{b} of each: d_k = d_model / h = {dm} / {heads} = {dk}.",
            "“{tok}”现在有一个查询（它要找什么）、一个键（它向其他词元展示什么）和一个值（被选中时它传递出去的内容）。第 {h} 个头读取每个矩阵的第 {a}–{b} 列：d_k = d_model / h = {dm} / {heads} = {dk}。",
        ),
        Scores => (
            "Row “{q}”: its largest score is with “{k}” ({s}), its smallest with “{k2}” ({s2}). The larger the score, the more the query and that key point the same way.",
            "“{q}”这一行：与“{k}”的分数最大（{s}），与“{k2}”的分数最小（{s2}）。分数越大，查询与这个键的方向越一致。",
        ),
        Scaling => (
            "Row “{q}”: its largest score, with “{k}”, becomes {s} ÷ {div} = {t}; every score is divided by the same √d_k = {div}, so the order stays and the gaps shrink.",
            "“{q}”这一行：它最大的分数（与“{k}”）变成 {s} ÷ {div} = {t}；每个分数都除以同一个 √d_k = {div}，大小顺序不变，差距变小。",
        ),
        ScalingOff => (
            "Scaling is OFF: row “{q}” goes to the softmax undivided; its largest score, with “{k}”, stays {s}.",
            "缩放已关闭：“{q}”这一行不做除法，直接进入 softmax；它最大的分数（与“{k}”）仍是 {s}。",
        ),
        Softmax => ("“{q}” takes {shares}.", "“{q}”读取的内容：{shares}。"),
        Share => ("{p} from “{k}”", "{p} 来自“{k}”"),
        Rest => ("{p} from the other {m}", "其余 {m} 个共占 {p}"),
        Output => (
            "The new “{q}” is {sum}: the value rows averaged with the weights of stage 5.",
            "新的“{q}” = {sum}：用第 5 步的权重对各值向量取加权平均。",
        ),
        MoreTerms => ("+ … ({m} more terms)", "+ …（还有 {m} 项）"),
        MultiHead => (
            "Row “{q}”, the key each head weighs most: {picks}. The heads read the sentence differently; concatenated and multiplied by W_O they give {dm} numbers per token again.",
            "“{q}”这一行，每个头权重最大的键：{picks}。各个头读这句话的方式不同；拼接后乘以 W_O，每个词元又回到 {dm} 个数。",
        ),
        HeadPick => ("head {h} → “{k}” ({w})", "第 {h} 个头 → “{k}”（{w}）"),
        WeightCell => (
            "“{q}” takes {p} of what it reads from “{k}”",
            "“{q}”读取的内容中有 {p} 来自“{k}”",
        ),
    }
}
