//! Messages of the intervention: switching heads off in the model view and what it changed.

super::catalogue! {
    /// A message about switching heads off.
    pub enum AblateMsg {
        Title => ("Switch heads off (ablation)", "关掉一些头（消融实验）"),
        Intro => (
            "A map invites a story (“this head finds the previous word”). Test it: switch the head off and see what changes. Click heads below to switch them off or back on; the maps above are then computed without them.",
            "注意力图容易让人编故事（“这个头在找前一个词”）。检验它的办法是干预：把这个头关掉，看看什么变了。点击下面的头，把它关掉或重新打开；上面的图随即按关掉之后的模型重新计算。",
        ),
        Mode => ("A switched-off head passes on", "被关掉的头输出"),
        ModeZero => ("zeros (its A·V replaced by 0)", "零（它的 A·V 换成 0）"),
        ModeZeroShort => ("zeros", "零"),
        ModeMeanShort => ("its mean over the positions", "它在各位置上的平均值"),
        ModeMean => (
            "its mean over the positions (under a causal mask: up to each position)",
            "它在各位置上的平均值（有因果掩码时：只到当前位置为止）",
        ),
        ModeNote => (
            "Either way the head's output is replaced after its softmax, before the heads are concatenated and multiplied by W_O: zero ablation and mean ablation. Zeros remove what it adds; its mean keeps its average contribution and removes only what differs from token to token. Under a causal mask the mean at each position is over that position and the ones before it, so no row receives what its mask hid from it (the mean over the whole sentence would hand every row the later tokens, the answers among them).",
            "无论哪种，替换都发生在这个头的 softmax 之后、各头拼接并乘以 W_O 之前：分别叫零消融（zero ablation）和均值消融（mean ablation）。换成零，去掉了它加进来的一切；换成平均值，保留它的平均贡献，只去掉随词元变化的那部分。有因果掩码时，每个位置的平均值只取这个位置及它之前的各位置，这样任何一行都不会拿到掩码本来对它遮住的内容（若对整句取平均，每一行都会拿到后面的词元，其中就有要它回答的答案）。",
        ),
        HeadOn => ("Layer {layer}, head {head}: on (click to switch it off)", "第 {layer} 层第 {head} 个头：开着（点击关掉）"),
        HeadOff => ("Layer {layer}, head {head}: switched off (click to switch it back on)", "第 {layer} 层第 {head} 个头：已关掉（点击重新打开）"),
        AllOn => ("Switch every head back on", "把所有头重新打开"),
        NoneOff => ("Every head is on: these are the model's own maps.", "所有头都开着：这些是模型原本的注意力图。"),
        Off => ("Switched off: {heads} ({mode}).", "已关掉：{heads}（{mode}）。"),
        SameBefore => (
            "The maps of layers 1–{layer} are the intact model's: a head is switched off after its own softmax, so the maps of its layer and of every layer before it do not change (the layers before layer {layer} were not even computed again). Only later layers see the difference.",
            "第 1–{layer} 层的图与完整模型相同：头是在它自己的 softmax 之后被关掉的，所以它所在层以及之前各层的图都不变（第 {layer} 层之前的层甚至没有重新计算）。只有后面的层才看得到差别。",
        ),
        SameFirst => (
            "Layer 1's maps are the intact model's: a head is switched off after its own softmax, so the maps of its own layer do not change. Only later layers see the difference.",
            "第 1 层的图与完整模型相同：头是在它自己的 softmax 之后被关掉的，所以它所在层的图不变。只有后面的层才看得到差别。",
        ),
        WeightChange => (
            "Largest change of any attention weight, per layer, from the intact model: {changes}.",
            "与完整模型相比，每一层注意力权重的最大变化：{changes}。",
        ),
        FinalChange => (
            "Each token's final representation, as the cosine to the intact model's (1 = unchanged): {cosines}. Mean change (1 − cosine): {mean}.",
            "每个词元最终的表示与完整模型的余弦相似度（1 = 没变）：{cosines}。平均变化（1 − 余弦）：{mean}。",
        ),
        StageNote => (
            "Switch a head of this layer off and its map above stays as computed, but what it passes on to the concatenation is replaced ({mode}): concat · W_O below changes.",
            "关掉这一层的某个头，上面它的那张图仍照常计算，但它传给拼接的输出被替换（{mode}）：下面的 concat · W_O 随之改变。",
        ),
        StageNoteLater => (
            "Every later layer then computes from the changed output.",
            "之后的每一层都从改变后的输出算起。",
        ),
        StageNoteModelView => (
            "The model view shows what changed, layer by layer.",
            "模型视图里逐层显示了什么变了。",
        ),
        LessonOff => (
            "Heads switched off: {heads} (each passes on {mode}). Their own maps and those of every earlier layer are as computed; every later number is computed without what they passed on.",
            "已关掉的头：{heads}（每个头改为输出{mode}）。它们自己的图以及之前各层的图照常计算；之后的每个数字都是在没有它们输出的情况下算出的。",
        ),
        SweepTitle => ("Which heads matter here? Switch each off in turn", "哪些头在这里重要？逐个关掉试试"),
        SweepIntro => (
            "One button switches every head off alone, one after another, and measures how far the final representations move each time (the mean over the tokens of 1 − cosine to the intact model's). Beside it: how much weight each head puts on the previous token. A head can have a striking map and little effect, or the reverse: attention weights are not an explanation.",
            "按下按钮，依次单独关掉每一个头，并测量每次最终表示移动了多远（各词元与完整模型的 1 − 余弦的平均值）。旁边是每个头放在前一个词元上的权重。一个头可能注意力图很醒目，影响却很小，也可能反过来：注意力权重并不等于解释。",
        ),
        SweepRun => ("Switch every head off in turn", "逐个关掉每一个头"),
        SweepProgress => ("{done} of {all} heads switched off and measured", "已关掉并测量 {done} / {all} 个头"),
        SweepFound => (
            "The largest effect: layer {layer}, head {head}, a mean change of {effect} thousandths (passing on {mode}). Click a cell to switch that head off alone.",
            "影响最大的是第 {layer} 层第 {head} 个头，平均变化千分之 {effect}（改为输出{mode}）。点击一个格子，就只关掉那个头。",
        ),
        SweepScale => (
            "Each cell: the mean change of the final representations with that head off, in thousandths (darker: larger, against the largest here).",
            "每个格子：关掉该头后最终表示的平均变化，单位为千分之一（颜色越深越大，以这里最大的为准）。",
        ),
        SweepCell => (
            "Layer {layer}, head {head}: {effect} thousandths. Click to switch it off alone.",
            "第 {layer} 层第 {head} 个头：千分之 {effect}。点击只关掉它。",
        ),
        ScaleOf => (
            "Read a cell against this sweep: of the {heads} heads, the largest is {largest} thousandths and the median {median}. A head far above the median is one this readout depends on; one near it changes little.",
            "对照这次扫描来读每个格子：{heads} 个头里最大的是千分之 {largest}，中位数是千分之 {median}。远高于中位数的头，才是这个读数依赖的头；接近中位数的头几乎没有影响。",
        ),
        Readout => ("Measure each head by", "用什么衡量每个头"),
        ReadoutFinal => (
            "how far the final representations move (mean 1 − cosine)",
            "最终表示移动了多远（1 − 余弦的平均值）",
        ),
        ReadoutWeight => (
            "how much one token's weight on another falls in a layer",
            "某一层里一个词元对另一个词元的权重下降了多少",
        ),
        ReadoutSimilarity => (
            "how much the similarity to the second sentence falls",
            "与第二个句子的相似度下降了多少",
        ),
        ReadoutFrom => ("From (query)", "从（查询）"),
        ReadoutTo => ("to (key)", "到（键）"),
        ReadoutLayer => ("in layer", "在第几层"),
        ReadoutNoSecond => (
            "Type a second sentence above to measure the similarity.",
            "先在上面输入第二个句子，才能衡量相似度。",
        ),
        ScaleWeight => (
            "Each cell: how much the weight from “{from}” to “{to}” in layer {layer} (the mean over its heads, {intact} with every head on) falls with that head off, in thousandths; a negative number: it rises.",
            "每个格子：关掉该头后，第 {layer} 层里从“{from}”到“{to}”的权重（各头的平均值，所有头都开着时为 {intact}）下降了多少，单位为千分之一；负数表示它上升了。",
        ),
        ScaleSimilarity => (
            "Each cell: how much the two sentences' similarity ({intact} with every head on) falls with that head off, in thousandths; a negative number: it rises.",
            "每个格子：关掉该头后，两个句子的相似度（所有头都开着时为 {intact}）下降了多少，单位为千分之一；负数表示它上升了。",
        ),
        SweepFoundAny => (
            "The largest effect: layer {layer}, head {head}, {effect} thousandths (passing on {mode}). Click a cell to switch that head off alone.",
            "影响最大的是第 {layer} 层第 {head} 个头：千分之 {effect}（改为输出{mode}）。点击一个格子，就只关掉那个头。",
        ),
        SweepFailed => ("The sweep stopped: {why}", "逐个关掉的实验中断：{why}"),
        SecondSentence => ("A second sentence, to compare with", "用来比较的第二个句子"),
        SecondHint => (
            "The model embeds each sentence as the mean of its final rows; their cosine is the similarity.",
            "模型取每个句子最后一层各行的平均值作为句子嵌入；两个嵌入的余弦就是相似度。",
        ),
        SecondPrefix => (
            " (each embedded as “{prefix}…”, as the model card asks)",
            "（按模型卡的要求，每句都以“{prefix}…”的形式嵌入）",
        ),
        SimilarityIntact => (
            "Similarity of the two sentences{prefix}: {intact} with every head on.",
            "两个句子的相似度{prefix}：所有头都开着时为 {intact}。",
        ),
        SimilarityOff => (
            "Similarity of the two sentences{prefix}: {intact} with every head on, {off} with {heads} off ({change}).",
            "两个句子的相似度{prefix}：所有头都开着时为 {intact}，关掉 {heads} 后为 {off}（{change}）。",
        ),
        ShowChange => (
            "Draw the maps above as their change from the intact model",
            "把上面的图画成相对完整模型的变化",
        ),
        ChangeNote => (
            "Each map now shows its weights with the heads off minus the intact model's: orange where a weight rose, purple where it fell, white where nothing changed (every map up to and including layer {layer} is white). One scale for all: the largest change, {max}, is the darkest.",
            "现在每张图显示的是关掉这些头之后的权重减去完整模型的权重：橙色表示权重上升，紫色表示下降，白色表示没变（第 {layer} 层及之前各层的图全是白色）。所有图用同一个色标：最大的变化 {max} 颜色最深。",
        ),
        PreviousIntro => (
            "The weight each head puts on the token just before the query, in percent (averaged over the queries after the first): what a “previous-token head” is named for.",
            "每个头放在查询前一个词元上的权重，单位为百分比（对第一个之后的各查询取平均）：“前一词元头”就是因此得名。",
        ),
        PreviousCell => ("Layer {layer}, head {head}: {weight} of its weight on the previous token", "第 {layer} 层第 {head} 个头：{weight} 的权重放在前一个词元上"),
        LearnIntro => (
            "Your model's heads, as the run last came to rest: switch some off and its accuracy on the 128 held-out sequences is measured again without them. The heads' maps above stay as they are (a head is switched off after its softmax); what changes is what reaches the answer.",
            "这是你的模型在训练最近一次停下时的各个头：关掉一些，就会在没有它们的情况下重新测量模型在 128 条留出序列上的准确率。上面各个头的注意力图保持不变（头是在它的 softmax 之后被关掉的）；变的是传到答案那里的信息。",
        ),
        LearnNoModel => (
            "The run has not come to rest with a model yet: pause it (or take a step) and the heads switched off are scored.",
            "训练尚未停下，还没有可评估的模型：先暂停（或训练一步），再为关掉的头打分。",
        ),
        LearnScoring => ("Scoring the model of step {step} with {heads} off…", "正在为第 {step} 步的模型打分（关掉 {heads}）……"),
        LearnScores => (
            "Model of step {step}, with {heads} off ({mode}): held-out accuracy {acc} (intact {intact}), loss {loss} nats (intact {intact_loss}).",
            "第 {step} 步的模型，关掉 {heads}（改为输出{mode}）：留出集准确率 {acc}（完整模型 {intact}），损失 {loss} 奈特（完整模型 {intact_loss}）。",
        ),
        LearnTraining => (
            "Training goes on with every head on; the heads switched off are scored again when the run next comes to rest.",
            "训练时所有头都开着；下次训练停下时，会重新为关掉的头打分。",
        ),
        AccuracyOff => ("Accuracy, heads {heads} off", "准确率（关掉 {heads}）"),
        LearnSweepIntro => (
            "One button switches each head off alone, one after another, and measures the held-out accuracy each time. Beside it, where each head's weight goes on the same sequences: on the token just before the query, and on the keys that hold the answer. A head can have a striking map and little effect, or the reverse.",
            "按下按钮，依次单独关掉每一个头，每次都测量留出集准确率。旁边是同样这些序列上每个头的权重落在哪里：落在查询前一个词元上的，以及落在存放答案的那些键上的。一个头可能注意力图很醒目，影响却很小，也可能反过来。",
        ),
        LearnSweepScale => (
            "Each cell: how far the held-out accuracy falls with that head off, in percentage points (darker: larger, against the largest here).",
            "每个格子：关掉该头后留出集准确率下降了多少个百分点（颜色越深越大，以这里最大的为准）。",
        ),
        LearnSweepCell => (
            "Layer {layer}, head {head}: accuracy {acc} % with it off, a fall of {drop} points. Click to switch it off alone.",
            "第 {layer} 层第 {head} 个头：关掉后准确率 {acc}%，下降 {drop} 个百分点。点击只关掉它。",
        ),
        LearnSweepFound => (
            "Model of step {step}: with every head on, accuracy {intact} %. The head it needs most is layer {layer}, head {head}: without it, {acc} % (passing on {mode}).",
            "第 {step} 步的模型：所有头都开着时准确率 {intact}%。它最离不开的是第 {layer} 层第 {head} 个头：没有它，准确率为 {acc}%（改为输出{mode}）。",
        ),
        LearnSweepNone => (
            "Model of step {step}: accuracy {intact} % with every head on, and switching any one head off costs at most {drop} points. No single head carries the task: another path covers for the one switched off (where two heads do the same job, the other one; else the rest of the model).",
            "第 {step} 步的模型：所有头都开着时准确率 {intact}%，关掉任何一个头最多下降 {drop} 个百分点。没有哪一个头单独承担这个任务：关掉一个，别的途径会替它完成（两个头做同一件事时是另一个头，否则是模型的其余部分）。",
        ),
        LearnSweepUnlearned => (
            "Model of step {step}: accuracy {intact} % with every head on, so it has not learned the task yet, and no head can be shown to matter (the largest fall is {drop} points). Train on, then sweep again.",
            "第 {step} 步的模型：所有头都开着时准确率只有 {intact}%，说明它还没学会这个任务，也就看不出哪个头重要（最大下降 {drop} 个百分点）。继续训练，再扫描一次。",
        ),
        LearnScaleOf => (
            "Read a cell against this sweep: of the {heads} heads, the largest fall is {largest} points and the median {median}.",
            "对照这次扫描来读每个格子：{heads} 个头里准确率下降最多的是 {largest} 个百分点，中位数是 {median} 个百分点。",
        ),
        LearnSweepOld => (
            "The sweep is of the model of step {step}; the run has moved on since. Run it again for the model as it is now.",
            "这次逐个关掉的结果是第 {step} 步的模型的；训练已经往前走了。再运行一次，就是现在这个模型的结果。",
        ),
        TrackPreviousIntro => (
            "The weight each head puts on the token just before the query, in percent (averaged over every query after the first, in the held-out sequences).",
            "每个头放在查询前一个词元上的权重，单位为百分比（对留出序列中第一个之后的每个查询取平均）。",
        ),
        TrackAnswerIntro => (
            "The weight each head puts on the keys that hold the token the answer must be, in percent (averaged over the queries that answer: the mirrored digit in reverse, the next digit in order in sort, the token before in previous token, the token after its earlier copy in induction).",
            "每个头放在存放答案词元的那些键上的权重，单位为百分比（对需要给出答案的各查询取平均：倒序任务里是镜像位置的数字，排序任务里是按顺序的下一个数字，前一词元任务里是前一个词元，归纳任务里是前一次出现之后的那个词元）。",
        ),
        TrackCell => ("Layer {layer}, head {head}: {weight} of its weight", "第 {layer} 层第 {head} 个头：{weight} 的权重"),
        LearnCaveat => (
            "What this shows: which heads this model needs for this task, measured on sequences it never trained on. What it does not: a head whose removal costs little may still do the work (another head can stand in for it: in induction, two heads of the second layer often do each other's job), and a head can matter through paths its map does not show.",
            "这能说明：这个模型完成这个任务需要哪些头，是在它从未训练过的序列上测出来的。不能说明：关掉后影响很小的头，也可能在做这件事（别的头可以替它：在归纳任务里，第二层的两个头常常能互相顶替），而一个头也可能通过它的注意力图看不出来的途径起作用。",
        ),
        ScoringFailed => ("The experiment stopped: {why}", "实验中断：{why}"),
        Caveat => (
            "What this shows: whether the later layers and the output depend on what this head passed on, for this sentence. What it does not: a small change does not mean the head does nothing (another head may do the same work), and a large one does not mean its map tells you how it is used.",
            "这能说明：对这句话而言，后面的层和输出是否依赖这个头传出去的信息。不能说明：变化小，不代表这个头什么都没做（别的头可能在做同样的事）；变化大，也不代表它的注意力图说明了它是怎样被使用的。",
        ),
    }
}
