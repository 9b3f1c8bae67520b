"""Reports drawn from the typed record alone: labels, the terminal table, results.json, summary.md, HTML, figures."""
