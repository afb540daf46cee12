"""The terminal: lines in from a reader thread (pipes and files too), text out, Ctrl-C.

Standard input is read line by line in a daemon thread, so the event loop keeps printing
updates while a person types, and a pending read never holds the process at exit. A first
Ctrl-C arrives as the line ``INTERRUPT`` (leave the queue, leave the screen); a second one
before the first was taken cancels the whole client.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import termios
import threading
from collections import deque
from typing import TextIO

INTERRUPT = "\x03"  # a line standing for Ctrl-C
_CLEAR = "\x1b[H\x1b[2J\x1b[3J"  # home, clear the screen, clear the scroll-back


class Console:
    """Reads lines from ``stdin`` and writes text to ``stdout``."""

    def __init__(self, stdin: TextIO, stdout: TextIO, clear_screen: bool = True) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self.interactive = stdin.isatty() and stdout.isatty()
        self._clear_screen = clear_screen and self.interactive
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._returned: deque[str | None] = deque()
        self._pending_interrupts = 0
        self._main: asyncio.Task[object] | None = None

    def start(self) -> None:
        """Start reading ``stdin`` and catching Ctrl-C (call from the running loop)."""
        loop = asyncio.get_running_loop()
        self._main = asyncio.current_task()
        thread = threading.Thread(target=self._read_all, args=(loop,), daemon=True)
        thread.start()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGINT, self._on_interrupt)

    def _read_all(self, loop: asyncio.AbstractEventLoop) -> None:
        while line := self._stdin.readline():
            if not self._post(loop, line.rstrip("\r\n")):
                return
        self._post(loop, None)

    def _post(self, loop: asyncio.AbstractEventLoop, line: str | None) -> bool:
        try:
            loop.call_soon_threadsafe(self._lines.put_nowait, line)
        except RuntimeError:
            return False  # the loop is closed: the client is ending, nobody reads any more
        return True

    def _on_interrupt(self) -> None:
        if self._pending_interrupts and self._main is not None:
            self._main.cancel()  # a second Ctrl-C: nobody took the first, so stop
            return
        self._pending_interrupts += 1
        self._lines.put_nowait(INTERRUPT)

    async def read(self) -> str | None:
        """Return the next line without its newline; None once input has ended (EOF)."""
        line = self._returned.popleft() if self._returned else await self._lines.get()
        if line is None:
            self._returned.append(None)  # stays ended for every later read
        elif line == INTERRUPT:
            self._pending_interrupts = max(0, self._pending_interrupts - 1)
        return line

    def give_back(self, line: str | None) -> None:
        """Put a line that was read but not used back in front of the next read."""
        self._returned.appendleft(line)

    def drop_read(self, task: asyncio.Task[str | None]) -> None:
        """Cancel a pending ``read`` task, giving back its line if it already had one."""
        if task.done() and not task.cancelled():
            self.give_back(task.result())
        else:
            task.cancel()

    async def ask(self, question: str) -> str | None:
        """Print ``question`` and return the answer line (None at EOF, INTERRUPT for Ctrl-C)."""
        self.prompt(question)
        line = await self.read()
        return None if line is None else line.strip()

    async def ask_secret(self, question: str) -> str | None:
        """As ``ask``, with what is typed not shown (a password) when input is a terminal."""
        if not self._stdin.isatty():
            return await self.ask(question)
        fd = self._stdin.fileno()
        before = termios.tcgetattr(fd)
        quiet = list(before)
        quiet[3] &= ~termios.ECHO  # lflag
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        try:
            return await self.ask(question)
        finally:
            termios.tcsetattr(fd, termios.TCSANOW, before)
            self._stdout.write("\n")  # the Enter that was typed was not shown either
            self._stdout.flush()

    def say(self, text: str = "") -> None:
        """Write ``text`` and a newline, flushed (pipes read it at once)."""
        self._stdout.write(text + "\n")
        self._stdout.flush()

    def prompt(self, text: str) -> None:
        """Write a prompt: on its own line when the input is a pipe, else left open."""
        self._stdout.write(f"{text} " if self.interactive else f"{text}\n")
        self._stdout.flush()

    def cue(self) -> None:
        """Show that a command may be typed ("> "), on a terminal only."""
        if self.interactive:
            self._stdout.write("> ")
            self._stdout.flush()

    def clear(self) -> None:
        """Clear the screen and its scroll-back on a terminal; on a pipe, draw a rule."""
        self._stdout.write(_CLEAR if self._clear_screen else "\n")
        self._stdout.flush()
