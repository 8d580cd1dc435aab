#!/usr/bin/env python3
"""How BPPLIB's ANI files relate to its AI files: for each ANI file, the AI file of the same
number, and the items that differ (as multisets of weights).

Usage: python3 scripts/ai-ani-pairs.py AI_DIR ANI_DIR

Prints one line per ANI file (its capacity, k = Σw/C, the items only in the ANI file and those
only in the AI file) and a summary: how many ANI files are their AI file with two items
merged into one of their sum (models/packing.md §2, "ANI").
"""
import os
import sys
from collections import Counter


def load(path):
    with open(path) as f:
        words = f.read().split()
    for line, word in enumerate(words, 1):
        if not word.isdigit():
            print(f"error: {path}: entry {line}: value {word!r}: not a whole number", file=sys.stderr)
            sys.exit(2)
    v = [int(x) for x in words]
    if len(v) < 2 or len(v) != v[0] + 2:
        print(f"error: {path}: {len(v)} numbers, expected n + 2 (n, C, n weights)", file=sys.stderr)
        sys.exit(2)
    return v[1], v[2:]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ai_dir, ani_dir = sys.argv[1], sys.argv[2]
    for d in (ai_dir, ani_dir):
        if not os.path.isdir(d):
            print(f"error: {d}: not a folder", file=sys.stderr)
            sys.exit(2)
    merged = total = 0
    for name in sorted(os.listdir(ani_dir)):
        if "_NR_" not in name:
            continue
        ai = os.path.join(ai_dir, name.replace("_NR_", "_DI_"))
        if not os.path.exists(ai):
            print(f"{name}\tno AI file {os.path.basename(ai)}")
            continue
        (c, w), (ca, wa) = load(os.path.join(ani_dir, name)), load(ai)
        a, b = Counter(w), Counter(wa)
        only_ani, only_ai = sorted((a - b).elements()), sorted((b - a).elements())
        k = sum(w) / c
        is_merge = (c == ca and len(only_ani) == 1 and len(only_ai) == 2
                    and only_ani[0] == sum(only_ai))
        total += 1
        merged += is_merge
        print(f"{name}\tC {c}\tk {k:g}\tANI only {only_ani}\tAI only {only_ai}"
              f"\t{'merge' if is_merge else 'other'}")
    print(f"{merged} of {total} ANI files are their AI file with two items merged into one")


if __name__ == "__main__":
    main()
