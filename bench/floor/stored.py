"""A command as the design's floor stores it, and the answer its judge gives.

The stamper stores each command with a line before it (the gateway's reply subject, the
command's place in its batch, the number the stamper gave it, its match); every judge reads
that line back and answers the command by it. Written and read here only.
"""

from __future__ import annotations

from dataclasses import dataclass

from photofinish.arbitration.v1 import arbitration_pb2


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored command: where its answer goes, and what the stamper made of it."""

    reply: str
    index: int
    seq: int
    match_id: str
    command: arbitration_pb2.ForwardedSubmit

    def encode(self) -> bytes:
        head = f"{self.reply} {self.index} {self.seq} {self.match_id}\n".encode()
        return head + self.command.SerializeToString()

    @classmethod
    def decode(cls, data: bytes) -> Stored:
        head, _, body = data.partition(b"\n")
        reply, index, seq, match_id = head.decode().split(" ")
        command = arbitration_pb2.ForwardedSubmit.FromString(body)  # as the rules read it
        return cls(reply, int(index), int(seq), match_id, command)

    def answer(self) -> bytes:
        """Return the gateway's answer to this command: taken, with its number."""
        taken = arbitration_pb2.SubmitReply(seq=self.seq)
        answers = [arbitration_pb2.SubmitAnswer(index=self.index, reply=taken)]
        return arbitration_pb2.SubmitAnswers(answers=answers).SerializeToString()

    def updates(self, updates: list[bytes]) -> bytes:
        """Return the seats' update of this command (``updates[seat]``), with its answer in
        it when the gateway follows the match, as the arbitration sends it."""
        taken = arbitration_pb2.SubmitReply(seq=self.seq)
        answer = arbitration_pb2.SubmitAnswer(index=self.index, reply=taken)
        return seat_updates(updates, self.reply if self.command.follows else "", answer)


def seat_updates(updates: list[bytes], reply: str, answer: arbitration_pb2.SubmitAnswer) -> bytes:
    """Return a ``SeatUpdates`` of ``updates`` (by seat), ``answer`` in it addressed to
    ``reply`` unless that is "" (its gateway does not follow the match)."""
    seats = arbitration_pb2.SeatUpdates(updates=updates)
    if reply:
        seats.answers.add(reply_subject=reply, answer=answer)
    return seats.SerializeToString()
