//! Messages of generation in the training view: the prompt, the steps, the K/V cache and the
//! work it saves.

super::catalogue! {
    /// A message about generating with the learner's model.
    pub enum GenerateMsg {
        Title => ("Generate, one token at a time", "逐个词元生成"),
        Intro => (
            "A causal model reads left to right, so it can write: from a prompt it predicts the next token, appends it, and predicts again. This is autoregressive generation, the way decoder-only models such as GPT write. Each new token's query looks at every key before it, and those keys and values never change once computed, so the model can keep them (the K/V cache) instead of computing them again at every step.",
            "因果模型从左往右读，所以它能写：从提示词出发，预测下一个词元，把它接到末尾，再预测下一个。这就是自回归（autoregressive）生成，GPT 这类仅解码器（decoder-only）模型就是这样写文本的。每个新词元的查询都要与它之前的所有键比较；而这些键和值一旦算出就不再改变，所以模型可以把它们存起来，不必每一步都重新计算，这就是 KV 缓存（键值缓存，KV cache）。",
        ),
        NotGenerative => (
            "In this task each digit asks for the one before it, not for the next: there is nothing to generate. Pick reverse, sort or induction.",
            "这个任务里每个数字要的是它前面那个数字，而不是下一个：没有什么可生成的。请选择倒序、排序或归纳。",
        ),
        NeedsModel => (
            "The run has not come to rest with a model yet: pause it (or take a step), then generate with the model as it is.",
            "训练尚未停下，还没有可用的模型：先暂停（或训练一步），再用当前的模型生成。",
        ),
        FromLesson => ("Generate with this model, a token at a time", "用这个模型逐个词元生成"),
        Source => ("Generate with", "用哪个模型生成"),
        SourceRun => ("the model training here, as it last came to rest", "这里正在训练的模型（取最近一次暂停时的状态）"),
        SourceSaved => (
            "the model opened in the lesson ({task}, {steps} steps)",
            "在本课中打开的模型（{task}，训练了 {steps} 步）",
        ),
        SavedOld => (
            "The model opened in the lesson was saved before generating was possible (it kept no unembedding): train it again and open it in the lesson to generate with it.",
            "在本课中打开的这个模型是本站支持生成之前保存的（其中没有反嵌入）：请重新训练，并在本课中打开，才能用它生成。",
        ),
        Prompt => ("Prompt (tokens separated by spaces)", "提示词（词元之间用空格分开）"),
        HintReverse => (
            "The digits to reverse, then the separator |: the model should write them backwards.",
            "要倒过来的数字，然后是分隔符 |：模型应当把它们倒着写出来。",
        ),
        HintSort => (
            "The digits to sort, then the separator |: the model should write them in ascending order.",
            "要排序的数字，然后是分隔符 |：模型应当把它们从小到大写出来。",
        ),
        HintInduction => (
            "A run of distinct digits, then its first digit again: the model should go on copying the run.",
            "一串互不相同的数字，然后再写一次它的第一个数字：模型应当接着把这串数字抄下去。",
        ),
        ErrPrompt => (
            "Type 1 to {n} tokens, each a digit from 0 to {max} (or | for the separator where the task has one).",
            "请输入 1 到 {n} 个词元，每个是 0 到 {max} 的数字（任务有分隔符时可用 |）。",
        ),
        Next => ("Next token", "下一个词元"),
        Run => ("Generate to the end", "一直生成到底"),
        Reset => ("Start again", "重新开始"),
        Pick => ("Pick the next token", "怎样选下一个词元"),
        Greedy => ("the most likely one (greedy)", "概率最大的那个（贪心解码）"),
        Sampled => ("sampled from the probabilities", "按概率采样"),
        Temperature => (
            "Sampling temperature (on the next-token probabilities, not the lesson's T)",
            "采样温度（作用于下一个词元的概率，不是本课中的 T）",
        ),
        TopK => ("Among the top k (0: all)", "只在概率最高的前 k 个中采样（0 表示不限）"),
        Seed => ("Seed", "随机种子"),
        ErrSampling => (
            "The temperature must be above 0 (at most 5), top k a whole number from 0, the seed a whole number from 0.",
            "温度必须大于 0（最多 5），前 k 个的 k 必须是不小于 0 的整数，随机种子也必须是不小于 0 的整数。",
        ),
        CacheToggle => ("Keep the keys and values (the K/V cache)", "保存键和值（KV 缓存）"),
        Output => ("Generated", "已生成"),
        NoneYet => ("Nothing yet: press Next token.", "还没有：点“下一个词元”。"),
        Correct => (
            "{right} of {total} right so far; the digits backwards are {want}.",
            "到目前为止 {total} 个中对了 {right} 个；倒过来的数字应为 {want}。",
        ),
        Step => (
            "Step {k}: reading “{token}” (position p = {p}, counting from 0) through attention rows that saw all {n} tokens so far, the model predicted “{chosen}” with probability {percent} %.",
            "第 {k} 步：模型读到“{token}”（位置 p = {p}，从 0 数起），它的注意力行看到了目前为止的全部 {n} 个词元；模型预测下一个是“{chosen}”，概率 {percent} %。",
        ),
        Full => (
            "The model's context is full: {n} tokens, the length it was trained on.",
            "模型的上下文已满：{n} 个词元，也就是训练时的长度。",
        ),
        NoMask => (
            "Why no mask at a step: with the cache, the only query is the newest token, and every key it can see comes before it, so there is nothing to hide (with the cache off, each step runs the whole sequence again, with the mask). The prompt went through in one pass and did need the causal mask: without it, each prompt row would see the prompt tokens after it.",
            "为什么用缓存时每一步不需要掩码：用缓存时，唯一的查询就是最新的词元，它能看到的每个键都在它之前，没有什么需要遮住（关掉缓存时，每一步都带着掩码把整个序列重算一遍）。提示词是一次性整段算的，那时需要因果掩码：否则提示词里的每一行都会看到它后面的词元。",
        ),
        Rows => (
            "The attention rows of the position that predicted each token, per layer and head (rows: the position that predicted; columns: every key so far; grey: not yet written). A row says where the model looked, not what it chose: the choice is the next-token probability below.",
            "做出每次预测的那个位置的注意力行，按层和头分开（行：做预测的位置；列：目前为止的所有键；灰色：当时还没写出来）。一行注意力说明模型看了哪里，而不是它选了什么：选择由下面的下一个词元概率决定。",
        ),
        RowsMap => ("Layer {l}, head {h}", "第 {l} 层，第 {h} 个头"),
        Probabilities => (
            "Next-token probabilities at the last step (the five most likely)",
            "最后一步时下一个词元的概率（最可能的五个）",
        ),
        Cache => (
            "The cache: K and V of every layer, one row per token so far ({rows} rows), {kv} K/V head(s) of d_k {dk} wide",
            "缓存：每一层的 K 和 V，目前为止每个词元一行（共 {rows} 行），{kv} 个 K/V 头，每个头的维度 d_k = {dk}",
        ),
        CacheK => ("K, layer {l}", "K，第 {l} 层"),
        CacheV => ("V, layer {l}", "V，第 {l} 层"),
        CacheOff => (
            "The cache is off: every step runs the whole sequence again, and the K and V below are recomputed each time.",
            "缓存已关闭：每一步都把整个序列重新算一遍，下面的 K 和 V 每次都重新计算。",
        ),
        Work => (
            "The last step: {cached} multiply–adds with the cache, {uncached} recomputing the whole sequence ({ratio} times as many). The last press took {ms} ms, {how}.",
            "最后一步：用缓存要 {cached} 次乘加，把整个序列重算一遍要 {uncached} 次（{ratio} 倍）。上一次点击用时 {ms} 毫秒，{how}。",
        ),
        WithCache => ("with the cache", "用了缓存"),
        Recomputed => ("recomputing", "是重新计算的"),
        WorkGrows => (
            "With the cache a step computes one new row: its projections, MLP and next-token logits cost the same at every step, and only its scores against the n keys and its A·V grow with n. Recomputing redoes all n rows: n times the projections, plus n² scores. At this size the projections dominate, so both columns below grow almost linearly and the cache saves about a factor n; the n² term wins only when n is well above d_model. The prompt's own pass costs the same either way.",
            "用缓存时，每一步只算一个新行：它的投影、MLP 和下一个词元的 logits（送入 softmax 之前的分数）每一步开销都一样，只有它对 n 个键的打分和 A·V 随 n 增长。重新计算则把 n 行全部重做：n 倍的投影，再加 n² 个分数。在这个规模下投影占大头，所以下表两列都近乎线性增长，用缓存的开销大约只有重新计算的 1/n；只有当 n 远大于 d_model 时，n² 那一项才会占上风。提示词本身那一遍两种方式开销一样。",
        ),
        WorkTable => ("Multiply–adds per step", "每一步的乘加次数"),
        WorkN => ("tokens n", "词元数 n"),
        WorkCached => ("with the cache", "用缓存"),
        WorkUncached => ("recomputing", "重新计算"),
    }
}
