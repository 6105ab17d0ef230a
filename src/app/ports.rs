//! The page's ends of the modules' channels (`protocol`): a module that starts posts its
//! `Hello` to the window with one end of a `MessageChannel`, which the page keeps; the page
//! sends it its link at once (and the numbers on screen, to the side lessons) and whenever
//! they change, and hears what it asks over the same channel.

use crate::bridge::Hosted;
use crate::protocol::{ToModule, ToPage};
use crate::wire::Message;
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{closure::Closure, JsCast};

/// What a module asked for that the page's owner of it answers: the link (`url_sync`).
type Asked = Rc<dyn Fn(Hosted, ToPage)>;

#[derive(Default)]
struct Ports {
    /// The started modules' channels.
    open: Vec<(Hosted, web_sys::MessagePort)>,
    /// The page's link as last sent, for a module that starts later.
    address: Option<String>,
    /// The numbers on screen as last handed over, likewise.
    shown: Option<ToModule>,
    /// Who hears what the modules ask, while the page is mounted.
    asked: Option<Asked>,
    /// Who hears that the class's question was answered, while it is asked (numbered, so that
    /// a question that goes does not silence the one that came).
    revealed: Option<(u64, Rc<dyn Fn()>)>,
    asked_questions: u64,
}

thread_local! {
    static PORTS: RefCell<Ports> = RefCell::new(Ports::default());
}

fn post(port: &web_sys::MessagePort, message: &ToModule) {
    let (value, moved) = message.to_js();
    if let Err(e) = port.post_message_with_transferable(&value, &moved) {
        leptos::logging::error!("a message to a module: {}", crate::bridge::describe(e));
    }
}

/// Send `message` to `module`, if it has started; whether it had.
pub fn send(module: Hosted, message: &ToModule) -> bool {
    let port = PORTS.with(|p| p.borrow().open.iter().find(|(m, _)| *m == module).map(|(_, port)| port.clone()));
    port.inspect(|port| post(port, message)).is_some()
}

/// The page's link (a query, without "?") to every module, now and when one starts.
pub fn send_address(query: String) {
    let message = ToModule::Address(query.clone());
    let open = PORTS.with(|p| {
        let mut p = p.borrow_mut();
        p.address = Some(query);
        p.open.iter().map(|(_, port)| port.clone()).collect::<Vec<_>>()
    });
    open.iter().for_each(|port| post(port, &message));
}

/// The numbers on screen (`ToModule::Shown`) to the side lessons, now and when they start.
pub fn hand_over(shown: ToModule) {
    PORTS.with(|p| p.borrow_mut().shown = Some(shown.clone()));
    send(Hosted::Side, &shown);
}

/// While the calling component lives, `on_answer` runs when the side lessons say the class's
/// question was answered (`ToPage::Revealed`).
pub fn on_revealed(on_answer: impl Fn() + 'static) {
    let number = PORTS.with(|p| {
        let mut p = p.borrow_mut();
        p.asked_questions += 1;
        p.revealed = Some((p.asked_questions, Rc::new(on_answer)));
        p.asked_questions
    });
    on_cleanup(move || {
        PORTS.with(|p| {
            let mut p = p.borrow_mut();
            if p.revealed.as_ref().is_some_and(|(n, _)| *n == number) {
                p.revealed = None;
            }
        })
    });
}

/// What a module said on its channel.
fn heard(module: Hosted, message: &wasm_bindgen::JsValue) {
    match ToPage::from_js(message) {
        Ok(ToPage::Revealed) => {
            if let Some((_, answer)) = PORTS.with(|p| p.borrow().revealed.clone()) {
                answer();
            }
        }
        Ok(message) => {
            if let Some(asked) = PORTS.with(|p| p.borrow().asked.clone()) {
                asked(module, message);
            }
        }
        Err(why) => leptos::logging::error!("a message from the {} module: {why}", module.name()),
    }
}

/// A module started: keep its end of the channel, and send it what it needs first.
fn opened(module: Hosted, port: web_sys::MessagePort) {
    let on_message = Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        heard(module, &e.data());
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // A module's channel lasts as long as the page.
    on_message.forget();
    let (address, shown) = PORTS.with(|p| {
        let mut p = p.borrow_mut();
        p.open.retain(|(m, _)| *m != module);
        p.open.push((module, port.clone()));
        (p.address.clone(), p.shown.clone())
    });
    if let Some(shown) = shown.filter(|_| module == Hosted::Side) {
        post(&port, &shown);
    }
    post(&port, &ToModule::Address(address.unwrap_or_default()));
}

/// While the calling component (the page) lives, take each module's channel when it starts,
/// and hand what the modules ask to `asked`.
pub fn listen(asked: impl Fn(Hosted, ToPage) + 'static) {
    PORTS.with(|p| p.borrow_mut().asked = Some(Rc::new(asked)));
    let hello = window_event_listener_untyped("message", |e| {
        let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else { return };
        // Only this page's own modules, in this window.
        if !window().location().origin().is_ok_and(|o| o == e.origin()) {
            return;
        }
        let port = e.ports().get(0).dyn_into::<web_sys::MessagePort>();
        match (ToPage::from_js(&e.data()), port) {
            (Ok(ToPage::Hello(module)), Ok(port)) => opened(module, port),
            (Ok(_), _) => leptos::logging::error!("a module's first message was not its hello"),
            (Err(_), _) => {} // not one of ours
        }
    });
    on_cleanup(move || {
        hello.remove();
        PORTS.with(|p| p.borrow_mut().asked = None);
    });
}
