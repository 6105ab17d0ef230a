//! What the page and the modules it starts (`bridge::Hosted`: their own .wasm in the same
//! window) say to each other, typed and in one codec (`wire`): pure, and tested natively.
//!
//! Each module opens one channel when it starts: it posts [`ToPage::Hello`] to the window with
//! one end of a `MessageChannel` (the only message that crosses the window, since a module has
//! no other way to reach the page), keeps the other end, and from then on both sides talk over
//! the channel only (`app::ports` on the page's side, `hosted` on the module's):
//!
//! - the page sends its link ([`ToModule::Address`]: its settings and every module's own keys,
//!   as the address bar will show them) first and each time it changes, asks a module to
//!   mount its view again ([`ToModule::Mount`]), says when the view closed
//!   ([`ToModule::Closed`]), and hands the side lessons the numbers on
//!   screen ([`ToModule::Shown`]);
//! - a module never writes the address bar or the history: it asks the page to go to a link
//!   ([`ToPage::Go`]: its own keys changed, some of the lesson's, or a new place), and says
//!   when the class's question has been answered ([`ToPage::Revealed`]).
//!
//! The page is the only writer of the address bar, within the browsers' limits on it
//! (`app::url_sync`), so a module's change is never lost to a refused write.

mod shown;

pub use shown::ShownLayer;

use crate::bridge::Hosted;
use crate::core::model::wire::Numbers;
use crate::wire::{Message, Packet, Reader, Refused, Writer};

/// Fired on the window (by the site's update offer before it reloads, and by the end-to-end
/// tests before they read the link) to have the page write its settings into the address bar
/// now, if a rewrite is waiting. Not between the page and a module: a module reads the link
/// the page sent it.
pub const WRITE_NOW_EVENT: &str = "attention-lab-write-now";

/// From the page to a module.
#[derive(Debug, Clone, PartialEq)]
pub enum ToModule {
    /// The page's link (the query, without "?"): its settings and the modules' own keys, as it
    /// writes them into the address bar (sent before the rewrite itself, which may wait).
    Address(String),
    /// Mount the view again: it opened again, or what it reads when it mounts changed.
    Mount,
    /// The view closed (the student moved to another): a module that holds a worker or much
    /// memory for it lets them go (`hosted::when_closed`; the pretrained views' worker).
    Closed,
    /// The numbers on screen, for the side lessons: the shown layer of the page's outcome
    /// ([`ShownLayer`], read by the module that draws it), which layer of the model it is, and
    /// the chosen head and query (all 0-based).
    Shown { shown: ShownLayer, layer: usize, head: usize, query: usize },
}

/// From a module to the page.
#[derive(Debug, Clone, PartialEq)]
pub enum ToPage {
    /// The module started; the channel's other end came with it.
    Hello(Hosted),
    /// Go to this link (a query, without "?"): in place, or as a new place in the history
    /// (`new_place`); `stored`: the module kept something the link needs (a trained model) in
    /// the browser's storage first, which the page reads again.
    Go { query: String, new_place: bool, stored: bool },
    /// The class's question ("Predict first") was answered or revealed: show the figure.
    Revealed,
}

// The variants' tags, the two directions apart (and apart from the workers' messages), so
// that a message sent the wrong way is refused as unknown.
const ADDRESS: u8 = 21;
const MOUNT: u8 = 22;
const SHOWN: u8 = 23;
const CLOSED: u8 = 24;
const HELLO: u8 = 31;
const GO: u8 = 32;
const REVEALED: u8 = 33;

impl Message for ToModule {
    fn encode(&self) -> Packet {
        let mut numbers = Numbers::default();
        let bytes = match self {
            ToModule::Address(query) => Writer::new(ADDRESS).text(query).finish(),
            ToModule::Mount => Writer::new(MOUNT).finish(),
            ToModule::Closed => Writer::new(CLOSED).finish(),
            ToModule::Shown { shown, layer, head, query } => {
                let (bytes, layer_numbers) = shown.encode();
                numbers = layer_numbers;
                Writer::new(SHOWN).usize(*layer).usize(*head).usize(*query).bytes(&bytes).finish()
            }
        };
        Packet { bytes, numbers }
    }

    fn decode(packet: Packet) -> Result<ToModule, Refused> {
        let (tag, mut r) = Reader::open(&packet.bytes)?;
        let message = match tag {
            ADDRESS => ToModule::Address(r.text()?),
            MOUNT => ToModule::Mount,
            CLOSED => ToModule::Closed,
            SHOWN => {
                let (layer, head, query) = (r.usize()?, r.usize()?, r.usize()?);
                let shown = ShownLayer::Received { bytes: r.bytes()?.to_vec(), numbers: packet.numbers.clone() };
                ToModule::Shown { shown, layer, head, query }
            }
            other => return Err(Refused::Unknown(other)),
        };
        r.done()?;
        if tag != SHOWN && packet.numbers != Numbers::default() {
            return Err(Refused::Invalid("numbers"));
        }
        Ok(message)
    }
}

impl Message for ToPage {
    fn encode(&self) -> Packet {
        let bytes = match self {
            ToPage::Hello(module) => Writer::new(HELLO).text(module.slug()).finish(),
            ToPage::Go { query, new_place, stored } => {
                Writer::new(GO).text(query).flag(*new_place).flag(*stored).finish()
            }
            ToPage::Revealed => Writer::new(REVEALED).finish(),
        };
        Packet { bytes, numbers: Numbers::default() }
    }

    fn decode(packet: Packet) -> Result<ToPage, Refused> {
        let (tag, mut r) = Reader::open(&packet.bytes)?;
        let message = match tag {
            HELLO => ToPage::Hello(Hosted::from_slug(&r.text()?).ok_or(Refused::Invalid("module"))?),
            GO => ToPage::Go { query: r.text()?, new_place: r.flag()?, stored: r.flag()? },
            REVEALED => ToPage::Revealed,
            other => return Err(Refused::Unknown(other)),
        };
        r.done()?;
        if packet.numbers != Numbers::default() {
            return Err(Refused::Invalid("numbers"));
        }
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;
    use std::sync::Arc;

    /// The shown layer as a module receives it (what the page sends reads back as this).
    fn received() -> ShownLayer {
        let page = ShownLayer::Outcome(Arc::new(outcome(Lang::Zh, |_, _| {})));
        let (bytes, numbers) = page.encode();
        ShownLayer::Received { bytes, numbers }
    }

    fn bytes(p: Packet) -> Vec<u8> {
        p.bytes
    }

    fn read_module(bytes: &[u8], numbers: &Numbers) -> Result<ToModule, Refused> {
        ToModule::decode(Packet { bytes: bytes.to_vec(), numbers: numbers.clone() })
    }

    fn read_page(bytes: &[u8]) -> Result<ToPage, Refused> {
        ToPage::decode(Packet { bytes: bytes.to_vec(), numbers: Numbers::default() })
    }

    fn to_module() -> Vec<ToModule> {
        vec![
            ToModule::Address("lang=zh&text=%E5%B0%8F%E7%8C%AB&view=graph".into()),
            ToModule::Address(String::new()),
            ToModule::Mount,
            ToModule::Closed,
            ToModule::Shown { shown: received(), layer: 2, head: 3, query: 11 },
        ]
    }

    fn to_page() -> Vec<ToPage> {
        let mut all: Vec<ToPage> = Hosted::ALL.iter().map(|m| ToPage::Hello(*m)).collect();
        for (new_place, stored) in [(false, false), (true, false), (true, true)] {
            all.push(ToPage::Go { query: "view=lesson&model=yours&q=2".into(), new_place, stored });
        }
        all.push(ToPage::Revealed);
        all
    }

    #[test]
    fn every_message_reads_back_as_it_was_written() {
        for m in to_module() {
            assert_eq!(ToModule::decode(m.encode()), Ok(m.clone()), "{m:?}");
        }
        for m in to_page() {
            assert_eq!(ToPage::decode(m.encode()), Ok(m.clone()), "{m:?}");
        }
    }

    #[test]
    fn a_message_cut_short_foreign_later_or_sent_the_wrong_way_is_refused_with_its_reason() {
        for m in to_module() {
            let Packet { bytes, numbers } = m.encode();
            for end in 0..bytes.len() {
                assert!(read_module(&bytes[..end], &numbers).is_err(), "{m:?} cut at {end}");
            }
            assert_eq!(read_page(&bytes), Err(Refused::Unknown(bytes[3])), "{m:?} read by the page");
            let mut longer = bytes.clone();
            longer.push(0);
            assert_eq!(read_module(&longer, &numbers), Err(Refused::Trailing));
        }
        for m in to_page() {
            let bytes = bytes(m.encode());
            for end in 0..bytes.len() {
                assert!(read_page(&bytes[..end]).is_err(), "{m:?} cut at {end}");
            }
            assert_eq!(
                read_module(&bytes, &Numbers::default()),
                Err(Refused::Unknown(bytes[3])),
                "{m:?} read by a module"
            );
        }
        assert_eq!(read_page(b"{\"hello\":1}"), Err(Refused::Foreign));
        let mut later = bytes(ToPage::Revealed.encode());
        later[2] += 1;
        assert_eq!(read_page(&later), Err(Refused::Version(later[2])));
        let mut stranger = bytes(ToPage::Hello(Hosted::Side).encode());
        let at = stranger.len() - 1;
        stranger[at] = b'x';
        assert_eq!(read_page(&stranger), Err(Refused::Invalid("module")));
        let numbers = Numbers { data: vec![1.0], sizes: vec![1, 1] };
        assert_eq!(read_module(&bytes(ToModule::Mount.encode()), &numbers), Err(Refused::Invalid("numbers")));
    }
}
