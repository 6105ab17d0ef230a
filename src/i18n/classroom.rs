//! Messages of the classroom features: presentation mode, shortcuts, themes, links, export,
//! the screen-reader tables and the spotlight.

use super::Text;

/// A message of the classroom features.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassMsg {
    Present,
    LeavePresent,
    Theme,
    ThemeAuto,
    ThemeLight,
    ThemeDark,
    ThemeContrast,
    CopyLink,
    Copied,
    CopyByHand,
    UrlNotice,
    Dismiss,
    Shortcuts,
    KeyArrows,
    KeySpace,
    KeyP,
    KeyS,
    KeyHelp,
    KeyEsc,
    Close,
    ExportPng,
    ExportCsv,
    ExportJson,
    ShowNumbers,
    HideNumbers,
    Spotlight,
    SpotlightHint,
}

impl Text for ClassMsg {
    fn pair(self) -> (&'static str, &'static str) {
        match self {
            Self::Present => ("Present", "演示模式"),
            Self::LeavePresent => ("Leave presentation", "退出演示"),
            Self::Theme => ("Theme", "主题"),
            Self::ThemeAuto => ("Auto", "跟随系统"),
            Self::ThemeLight => ("Light", "浅色"),
            Self::ThemeDark => ("Dark", "深色"),
            Self::ThemeContrast => ("High contrast (projector)", "高对比度（投影）"),
            Self::CopyLink => ("Copy link", "复制链接"),
            Self::Copied => ("Link copied: it reopens exactly this picture.", "链接已复制：打开它会看到完全相同的画面。"),
            Self::CopyByHand => ("Copy this link by hand:", "请手动复制这个链接："),
            Self::UrlNotice => (
                "Some values in this link were not understood and were reset to their defaults: {keys}.",
                "链接中有些值无法识别，已恢复为默认值：{keys}。",
            ),
            Self::Dismiss => ("Dismiss", "知道了"),
            Self::Shortcuts => ("Keyboard shortcuts", "键盘快捷键"),
            Self::KeyArrows => ("previous / next stage", "上一步 / 下一步"),
            Self::KeySpace => ("next stage (presentation mode)", "下一步（演示模式）"),
            Self::KeyP => ("presentation mode on / off", "开启 / 关闭演示模式"),
            Self::KeyS => ("scaling ÷√d_k on / off", "开启 / 关闭 ÷√d_k 缩放"),
            Self::KeyHelp => ("show or hide this list", "显示或隐藏这份列表"),
            Self::KeyEsc => ("leave presentation mode, close this list", "退出演示模式，关闭列表"),
            Self::Close => ("Close", "关闭"),
            Self::ExportPng => ("PNG", "PNG"),
            Self::ExportCsv => ("CSV", "CSV"),
            Self::ExportJson => ("Download the whole trace (JSON)", "下载完整计算过程（JSON）"),
            Self::ShowNumbers => ("Show the numbers as a table", "以表格显示数值"),
            Self::HideNumbers => ("Hide the table", "隐藏表格"),
            Self::Spotlight => ("Spotlight a token:", "聚光某个词元："),
            Self::SpotlightHint => (
                "its row and column are outlined in every heatmap of this stage; click it again to clear",
                "它所在的行和列会在本步骤的每张热力图中被框出；再次点击即可取消",
            ),
        }
    }
}
