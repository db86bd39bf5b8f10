#!/usr/bin/env python3
"""Generate bot/data/boosters.json (booster sheets of TSP, PLC and FUT) from MTGJSON.

Run from the repository root:  python3 tools/gen_boosters.py ../shared
The product never reads ../shared at run time: this generated file is committed and embedded
in the bot (`bot/src/league/boosters.rs`, include_str!).

Per set: the booster configurations (`weight`, `contents` as [sheet, count] pairs, in the
order MTGJSON lists them) and the sheets (`foil`, `balance_colors`, `allow_duplicates`, and
cards as [name, weight, colours, rarity]). Printings of the same name on one sheet (the basic
lands on TSP's foil sheet) are merged by adding their weights: a sheet drawing one card per
pack, as those do, gives each name the same chance either way.
"""
import json
import sys
from pathlib import Path

shared = Path(sys.argv[1] if len(sys.argv) > 1 else "../shared")
out = Path("bot/data/boosters.json")
SETS = [("TSP", "Time Spiral"), ("PLC", "Planar Chaos"), ("FUT", "Future Sight")]

cards = {}
for code in ["TSP", "TSB", "PLC", "FUT"]:
    for c in json.load(open(shared / f"data/mtgjson/{code}.json"))["data"]["cards"]:
        cards[c["uuid"]] = c

result = {"generated_by": "tools/gen_boosters.py from MTGJSON (MIT-licensed data)", "sets": []}
for code, name in SETS:
    b = json.load(open(shared / f"data/mtgjson/{code}.json"))["data"]["booster"]["default"]
    boosters = [
        {"weight": x["weight"], "contents": [[s, n] for s, n in x["contents"].items()]}
        for x in b["boosters"]
    ]
    assert sum(x["weight"] for x in b["boosters"]) == b["boostersTotalWeight"]
    sheets = []
    for sname, sh in b["sheets"].items():
        merged = {}
        for uuid, w in sh["cards"].items():
            c = cards[uuid]
            key = c["name"]
            if key in merged:
                merged[key][1] += w
            else:
                merged[key] = [key, w, "".join(c.get("colors", [])), c.get("rarity", "")]
        assert sum(v[1] for v in merged.values()) == sh["totalWeight"], (code, sname)
        sheets.append({
            "name": sname,
            "foil": sh.get("foil", False),
            "balance_colors": sh.get("balanceColors", False),
            "allow_duplicates": sh.get("allowDuplicates", False),
            "cards": sorted(merged.values(), key=lambda v: v[0]),
        })
    result["sets"].append({
        "code": code, "name": name,
        "total_weight": b["boostersTotalWeight"],
        "boosters": boosters, "sheets": sheets,
    })

text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
# One sheet card per line keeps diffs readable.
text = text.replace("],[", "],\n[")
out.write_text(text + "\n", encoding="utf-8")
print(f"wrote {out} ({len(text)} bytes)")
