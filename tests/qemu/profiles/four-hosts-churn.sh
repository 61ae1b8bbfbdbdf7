# four-hosts (a b c d on one NVDIMM), a boot for suites/churn4.sh alone.
# After churn4 (each client runs thousands of short processes for about two
# minutes), the next suite in the same boot saw soft lockups and RCU stalls
# in b, c and d: a page being zeroed (clear_page_erms) under TCG advanced a
# few hundred bytes in 26 s, seen in 4 of 4 runs on a 2-core machine; churn4
# itself, and cli-four-hosts in a boot of its own, never did.  Guests that
# start fresh keep each suite's kernel-log check meaningful.
. "$PROFILES/four-hosts.sh"
