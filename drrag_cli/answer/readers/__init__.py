"""Answer readers: rules that answer a question in code from the fed text, one file each,
behind one interface (:mod:`.base`) and tried in the order ``answer.readers`` lists
(:mod:`.registry`). docs/ANSWERS.md has a row per reader with its measured precision."""
