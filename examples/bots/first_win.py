"""A bot for hkcore in 20 lines: it wins when it can, else discards the first tile offered, else passes.

Run it in the arena: hkscore arena --bots "cmd:python3 examples/bots/first_win.py,efficiency" --walls 20
(docs/bots.md, "Bots from any program")."""
import json
import sys

hello = json.loads(sys.stdin.readline())  # {"hkcore": 1, "preset": ..., "seed": ...}
for line in sys.stdin:
    prompt = json.loads(line)
    actions = prompt["actions"]
    choice = next((a for a in actions if a["act"] == "win"), None)
    if choice is None:
        choice = next((a for a in actions if a["act"] == "discard"), None)
    if choice is None:
        choice = next((a for a in actions if a["act"] == "pass"), actions[0])
    print(json.dumps(choice), flush=True)
