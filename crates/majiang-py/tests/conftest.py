"""Shared fixtures: every rule set at every table size it allows."""

import majiang

#: (rules, options) for every rule set and table size.
TABLES = [
    (r, {"players": n} if len(majiang.table_sizes(r)) > 1 else None)
    for r in majiang.RULES
    for n in majiang.table_sizes(r)
]


def table_id(case):
    rules, options = case
    return rules if options is None else f"{rules}-{options['players']}"
