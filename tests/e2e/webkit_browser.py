#!/usr/bin/python3
"""The WebKitGTK browser the end-to-end tests drive (E2E_BROWSER=webkit): WebKitWebDriver starts
it with --automation and asks it for windows. Each page writes its console to stdout, where the
tests read it (tests/e2e/engine.rs); Debian's MiniBrowser drops that setting under automation.
Needs Debian's python3-gi and gir1.2-webkit2-4.1 (scripts/setup.sh installs them)."""
import os
import sys
import tempfile

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gdk, Gtk, WebKit2  # noqa: E402

if "--automation" not in sys.argv:
    sys.exit("started by WebKitWebDriver, with --automation")

Gtk.init([])
# Each window its own storage (caches, service workers, local storage), in the test's fresh
# profile folder, as Chromium's and Firefox's windows have: the default one is shared by all.
data = os.environ.get("ATTENTION_LAB_WEBKIT_DATA") or tempfile.mkdtemp(prefix="attention-lab-webkit-")
manager = WebKit2.WebsiteDataManager(base_data_directory=os.path.join(data, "data"), base_cache_directory=os.path.join(data, "cache"))
context = WebKit2.WebContext(website_data_manager=manager)
context.set_automation_allowed(True)
windows = []


def new_window(_session):
    settings = WebKit2.Settings(enable_write_console_messages_to_stdout=True)
    view = WebKit2.WebView(web_context=context, settings=settings, is_controlled_by_automation=True)
    window = Gtk.Window()
    window.set_default_size(1280, 900)
    window.add(view)
    view.connect("close", lambda _view: window.destroy())
    # A page whose process ended (a crash, or killed for its memory) leaves a blank view that
    # answers scripts as a new page: say so where the tests read the page's console errors.
    view.connect("web-process-terminated", lambda _view, reason: print(
        f"{view.get_uri()}:0:0: CONSOLE JS ERROR the page's web process ended ({reason.value_nick})", flush=True))
    window.show_all()
    # No window manager runs in Xvfb, so X gives the keyboard to whatever window is under the
    # pointer: take it, as the front window of a desktop has it.
    window.get_window().focus(Gdk.CURRENT_TIME)
    windows.append(window)
    return view


def started(_context, session):
    info = WebKit2.ApplicationInfo()
    info.set_name("attention-lab-e2e")
    info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
    session.set_application_info(info)
    session.connect("create-web-view", new_window)


context.connect("automation-started", started)
Gtk.main()
