#!/usr/bin/python3
"""The WebKitGTK browser the end-to-end tests drive (E2E_BROWSER=webkit): WebKitWebDriver starts
it with --automation and asks it for windows. Each page writes its console to stdout, where the
tests read it (tests/e2e/engine.rs); Debian's MiniBrowser drops that setting under automation.
Needs Debian's python3-gi and gir1.2-webkit2-4.1 (scripts/setup.sh installs them)."""
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

if "--automation" not in sys.argv:
    sys.exit("started by WebKitWebDriver, with --automation")

Gtk.init([])
context = WebKit2.WebContext.get_default()
context.set_automation_allowed(True)
windows = []


def new_window(_session):
    settings = WebKit2.Settings(enable_write_console_messages_to_stdout=True)
    view = WebKit2.WebView(web_context=context, settings=settings, is_controlled_by_automation=True)
    window = Gtk.Window()
    window.set_default_size(1280, 900)
    window.add(view)
    view.connect("close", lambda _view: window.destroy())
    window.show_all()
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
