"""The page brings its view forward as the server's rules do: for every step of random
matches of each game (nudges at the gates included), the updates a stream carries (a
whole view, then changes) are fed to the page's own code (clients/web/src/keptview.ts,
bundled and run by Node.js), and each view it ends with is the view the rules show."""

from __future__ import annotations

import base64
import json
import random
import subprocess
from pathlib import Path
from typing import Any

from games.decision import Step
from games.registry import GAMES, Game
from photofinish.arbitration.v1 import arbitration_pb2
from photofinish.game.v1 import game_pb2
from photofinish.rules.v1 import rules_pb2
from services.rules import replies
from tests.rules.walks import RECIPIENTS, nudged_walk

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
CHECK = """
import { readFileSync } from "node:fs";
import { equals, fromBinary, toJsonString } from "@bufbuild/protobuf";
import { MatchUpdateSchema } from "./src/gen/photofinish/arbitration/v1/arbitration_pb";
import { ViewSchema } from "./src/gen/photofinish/game/v1/game_pb";
import { KeptView } from "./src/keptview";

const bytes = (text) => new Uint8Array(Buffer.from(text, "base64"));
const streams = JSON.parse(readFileSync(process.argv[2], "utf8"));
let checked = 0;
const wrong = [];
for (const stream of streams) {
  const kept = new KeptView();
  stream.updates.forEach((sent, i) => {
    const update = kept.complete(fromBinary(MatchUpdateSchema, bytes(sent)));
    const expected = fromBinary(ViewSchema, bytes(stream.views[i]));
    checked += 1;
    if (!update.view || !equals(ViewSchema, update.view, expected)) {
      wrong.push({
        stream: stream.name,
        update: i,
        got: update.view ? toJsonString(ViewSchema, update.view) : null,
        expected: toJsonString(ViewSchema, expected),
      });
    }
  });
}
console.log(JSON.stringify({ checked, wrong: wrong.slice(0, 3) }));
"""


def steps_of(game: Game, seed: int) -> tuple[Any, list[tuple[Any, Step[Any, Any]]]]:
    """Return a match's first state and its steps (each with the state it came from)."""
    first = game.engine.new_match(game.options, seed)
    return first, list(nudged_walk(game.engine, first, random.Random(seed), 300))


def stream(game: Game, seed: int) -> list[dict[str, Any]]:
    """Return each recipient's stream of one match: the updates as sent (the rules' Seen
    after the arbitration's head, as the arbitration sends them) and the views they show."""
    first, steps = steps_of(game, seed)
    opening = replies.encoded_step(game, Step(first, (), game.engine.decision(first)))
    sent = [rules_pb2.StepReply.FromString(opening)]
    sent += [
        rules_pb2.StepReply.FromString(replies.encoded_step(game, step, since=before.version))
        for before, step in steps
    ]
    states = [first, *(step.state for _, step in steps)]
    streams = []
    for index, seat in enumerate(RECIPIENTS):
        number = -1 if seat is None else int(seat)
        head = arbitration_pb2.MatchUpdate(
            game=game_pb2.Game.ValueType(game.number), seat=number
        ).SerializeToString()
        updates = [head + reply.perspectives[index].seen for reply in sent]
        views = [game.codec.view_to_proto(game.engine.view(s, seat)) for s in states]
        streams.append(
            {
                "name": f"{game.name} seed {seed} seat {number}",
                "updates": [base64.b64encode(u).decode() for u in updates],
                "views": [base64.b64encode(v.SerializeToString()).decode() for v in views],
            }
        )
    return streams


def test_the_pages_views_brought_forward_are_the_rules_views(tmp_path: Path) -> None:
    streams = [s for game in GAMES for seed in range(8) for s in stream(game, seed)]
    changes = sum(
        not arbitration_pb2.MatchUpdate.FromString(base64.b64decode(u)).HasField("view")
        for s in streams
        for u in s["updates"]
    )
    assert changes > 1000  # most updates are changes
    (tmp_path / "streams.json").write_text(json.dumps(streams))
    bundle = tmp_path / "check.mjs"
    subprocess.run(
        [
            str(WEB / "node_modules/.bin/esbuild"),
            "--bundle",
            "--platform=node",
            "--format=esm",
            f"--outfile={bundle}",
            "--log-level=warning",
        ],
        input=CHECK,
        text=True,
        cwd=WEB,
        check=True,
    )
    ran = subprocess.run(
        ["node", str(bundle), str(tmp_path / "streams.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(ran.stdout)
    assert result["wrong"] == []
    assert result["checked"] == sum(len(s["updates"]) for s in streams)
