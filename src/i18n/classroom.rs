//! Messages of the classroom features: presentation mode, shortcuts, themes, links, export,
//! the screen-reader tables and the spotlight.

super::catalogue! {
    /// A message of the classroom features.
    pub enum ClassMsg {
        Present => ("Present", "演示模式"),
        /// On a phone: the menu the header's tools fold into.
        TeacherTools => ("Teacher tools", "教师工具"),
        LessonProgress => ("Progress through the lesson", "本课进度"),
        /// The name of a formula's box, which scrolls sideways on a narrow screen.
        Formula => ("Formula", "公式"),
        ScalingOnBadge => ("Scaling ÷√d_k: ON", "缩放 ÷√d_k：开"),
        ScalingOffBadge => ("Scaling ÷√d_k: OFF", "缩放 ÷√d_k：关"),
        ScalingBadgeHint => (
            "Switches the division by √d_k for the lesson and the lab (key S)",
            "为本课和饱和实验切换是否除以 √d_k（快捷键 S）",
        ),
        OpenLab => (
            "Open the saturation lab: what the softmax does as d_k grows, scaled or not →",
            "打开 softmax 饱和实验：d_k 变大时，分数缩放与不缩放，softmax 各会怎样 →",
        ),
        LeavePresent => ("Leave presentation", "退出演示"),
        /// A part of the site whose files did not arrive: load it again.
        ModuleRetry => ("Try again", "重试"),
        /// A part of the site whose program the browser stopped as it started, after the page
        /// loaded itself once more for it (assets/start.js).
        ModuleTrapped => (
            "This part of the lesson could not start: the browser stopped its program with an error. Reloading the page usually helps; your settings are kept in the link.",
            "这部分内容无法启动：浏览器在它启动时以一个错误中止了它的程序。重新加载页面通常就能解决；你的设置都保存在链接里。",
        ),
        ReloadPage => ("Reload the page", "重新加载页面"),
        Theme => ("Theme", "主题"),
        ThemeAuto => ("Auto", "跟随系统"),
        ThemeLight => ("Light", "浅色"),
        ThemeDark => ("Dark", "深色"),
        ThemeContrast => ("High contrast (projector)", "高对比度（适合投影）"),
        CopyLink => ("Link for this screen", "当前画面的链接"),
        CopyStudentLink => ("Link for students", "学生链接"),
        StudentCopied => ("Link for students copied.", "学生链接已复制。"),
        StudentLinkTitle => ("For students: scan the code or type the link", "给学生：扫描二维码或输入链接"),
        StudentLinkNote => (
            "It opens this view with these settings in the normal layout: no presentation mode, the default theme. Only the settings you changed are in it.",
            "它会用这些设置打开当前画面，使用普通布局：不进入演示模式，使用默认主题。链接里只包含你改动过的设置。",
        ),
        StudentLinkLocal => (
            "This page is served by this computer ({host}): students' phones cannot reach it and need the address where the site is published.",
            "本页是由这台电脑提供的（{host}）：学生的手机访问不到这个地址，需要使用网站发布后的地址。",
        ),
        QrLabel => ("QR code of the link for students", "学生链接的二维码"),
        QrTooLong => (
            "This link is too long for a QR code: shorten the sentence, or share the link as text.",
            "链接太长，无法生成二维码：请缩短句子，或直接发送链接文字。",
        ),
        Copied => ("Link copied: it reopens exactly this picture.", "链接已复制：打开它会看到完全相同的画面。"),
        CopyByHand => ("Copy this link by hand:", "请手动复制这个链接："),
        UrlNotice => (
            "Some values in this link were not understood and were reset to their defaults: {keys}.",
            "链接中有些值无法识别，已恢复为默认值：{keys}。",
        ),
        Dismiss => ("Dismiss", "知道了"),
        Shortcuts => ("Keyboard shortcuts", "键盘快捷键"),
        KeyArrows => ("previous / next stage", "上一步 / 下一步"),
        SpaceBar => ("Space", "空格"),
        KeySpace => ("next stage (presentation mode)", "下一步（演示模式）"),
        KeyP => ("presentation mode on / off", "开启 / 关闭演示模式"),
        KeyS => ("scaling ÷√d_k on / off", "开启 / 关闭 ÷√d_k 缩放"),
        KeyHelp => ("show or hide this list", "显示或隐藏这份列表"),
        KeyEsc => (
            "close this list or the link for students; if neither is open, leave presentation mode",
            "关闭这份列表或学生链接；都没打开时，退出演示模式",
        ),
        Close => ("Close", "关闭"),
        /// Shown in the help dialog: which build this is.
        Version => ("Version {v}", "版本 {v}"),
        /// Shown in the help dialog once the service worker holds this version's files.
        OfflineKept => (
            "This browser keeps every file of this version: the site opens and works without the network (a pretrained model once downloaded, too).",
            "这个浏览器已保存本版本的全部文件：断网时网站也能打开并正常使用（已下载过的预训练模型也一样）。",
        ),
        /// Shown in the help dialog where service workers are off or refused.
        OfflineUnavailable => (
            "This window cannot keep the site for use without the network: the browser gives it no service worker, the helper that keeps the site's files (as for a page served over plain http from another computer, in some private windows, or under a school's browser policy). It works while the server can be reached.",
            "这个窗口无法保存网站供断网使用：浏览器在这里不给它服务工作线程，也就是保存网站文件的那个助手（比如从另一台电脑通过未加密连接打开的页面、某些隐私窗口，或学校的浏览器策略）。只要能连上服务器，网站就能正常使用。",
        ),
        /// Shown in the help dialog: which build of the kernels the pretrained models run on.
        KernelsRelaxed => (
            "The pretrained models run in a worker on SIMD kernels with relaxed SIMD's fused multiply–add.",
            "预训练模型在后台线程中运行，使用 SIMD 内核，并用上了宽松 SIMD 指令的融合乘加。",
        ),
        KernelsPlain => (
            "This browser has no relaxed SIMD, so the pretrained models run in a worker on plain SIMD kernels: a multiply and an add where other browsers fuse them. The numbers agree to within rounding; it is a little slower.",
            "这个浏览器不支持宽松 SIMD，因而没有融合乘加指令，所以预训练模型在后台线程中使用普通的 SIMD 内核：别的浏览器一步完成的乘加，这里分成一次乘法和一次加法。数值在舍入误差内一致，只是稍慢一些。",
        ),
        UpdateAvailable => ("A new version of this site is available.", "本网站有新版本可用。"),
        UpdateReload => ("Reload to use it", "重新加载以使用新版本"),
        ExportPng => ("PNG", "PNG"),
        ExportCsv => ("CSV", "CSV"),
        ExportJson => ("Download the whole trace (JSON)", "下载完整计算过程（JSON）"),
        ShowNumbers => ("Show the numbers as a table", "以表格显示数值"),
        HideNumbers => ("Hide the table", "隐藏表格"),
        Spotlight => ("Spotlight a token:", "高亮某个词元："),
        SpotlightHint => (
            "its row and column are outlined in every heatmap of this stage; click it again to clear",
            "它所在的行和列会在本步骤的每张热力图中被框出；再次点击即可取消",
        ),
    }
}
