"""Why does the search player not beat the expert? (issue 19; not a test, a measurement)

``python tests/search_diagnostic.py HANDS ROLLOUTS`` plays HANDS hand-9 tables of four experts
(seed 77) and, at every take and call decision (R9) the offer reaches, records: the expert's
answer; whether the card cuts the seat's cards still needed (the search preset's screen); the
search player's rollout value (relative penalty acting minus passing, below 0: act) from the
seat's knowledge with 24 and with ROLLOUTS rollouts; and the same value with the opponents'
real hands kept and only the stock dealt again ("oracle"), with the same streams. Prints the
summary quoted in the README; writes ``search_diagnostic.csv``.
"""

import dataclasses
import sys
import time

import numpy as np
import pandas as pd

import kalooki_sim as ks
from kalooki_sim.engine._kernels import branch as B
from kalooki_sim.engine._kernels import engine as E
from kalooki_sim.engine._kernels import rng as R
from kalooki_sim.engine._kernels import search as S
from kalooki_sim.engine.play import rules_vector
from kalooki_sim.engine.policies import policy_matrix

P = 4
RULES = ks.Rules()
RV = rules_vector(RULES, 9)
SW = S.new_search_ws(P, RULES.pack_size)


def search_matrix(n):
    search = dataclasses.replace(ks.preset("search"), name=f"search-{n}", rollouts=n)
    return policy_matrix([search] * P)


def oracle_value(pol, t, s, ask, n):
    """:func:`S.rollout_value` with the opponents' real hands kept: only the stock is dealt
    again (the same sampler, pair and stream keys)."""
    kb, samp, br, opp, res, mpol, rst = SW.kb, SW.samp, SW.br, SW.opp, SW.res, SW.mpol, SW.rst
    mpol[:] = pol[P + s]
    B.copy_state(t, kb, False)
    kb[1][:, E.PS_NC_VAL0] = -1
    kb[1][:, E.PS_NC_VAL1] = -1
    m = int(t[2][E.GS_STOCK_N])
    pool = np.sort(t[3][:m]).astype(np.int64)
    opp[:] = 0
    base, turn = t.streams[0, 0], int(t[2][E.GS_TURNS]) + 1
    total = 0.0
    for i in range(n):
        rst[0], rst[1] = R.stream_key(base, turn, s, i, S.STREAM_SEARCH), 0
        B._sample_situation(kb, samp, pool, m, opp, 0, rst)
        for r in range(samp[13].shape[0]):
            samp.streams[r, 0] = R.stream_key(base, turn, s, i, S.STREAM_SEARCH + 1 + r)
            samp.streams[r, 1] = 0
        B.play_pair(RV, mpol, samp, br, s, ask, res)
        total += res[4] - res[B.ROLL_COLS + 4]
    return total / n


def decisions(hands, n):
    play = policy_matrix([ks.preset("expert")] * P)
    pn, p24 = search_matrix(n), search_matrix(24)
    snap = E.new_table(P, RULES.pack_size)
    seats, kinds, taken = (np.zeros(P, np.int64) for _ in range(3))
    rows = []
    for game in range(hands):
        t = E.new_table(P, RULES.pack_size)
        E.start_hand(RV, t, E.Deal(77, game, 9, 0, int(E.first_dealer(77, game, P))))
        while True:
            if t[2][E.GS_LIVE] == 1:
                B.copy_state(t, snap, False)
                E.one_turn(RV, play, snap)  # the experts' answers: who is asked, who acts
                nd = B._offer_decisions(RV, t, snap[2][E.GS_TAKEN_BY], snap[2][E.GS_CALLED_BY],
                                        seats, kinds, taken)
                ask = 0
                for d in range(nd):
                    s = int(seats[d])
                    ask |= 1 << s
                    rows.append(dict(
                        game=game, seat=s, kind="take" if kinds[d] == B.TAKE else "call",
                        expert_acts=bool(taken[d]),
                        closer=bool(S.brings_closer(RV, play, t, s)),
                        v_n=S.rollout_value(RV, pn, t, SW, s, ask),
                        v24=S.rollout_value(RV, p24, t, SW, s, ask),
                        v_oracle=oracle_value(pn, t, s, ask, n)))
            if E.one_turn(RV, play, t):
                break
    return pd.DataFrame(rows)


def main(hands=4, n=120):
    t0 = time.time()
    df = decisions(hands, n)
    df.to_csv("search_diagnostic.csv", index=False)
    df["act_n"] = df["v_n"] < 0
    df["agree24"] = (df["v24"] < 0) == df["act_n"]
    print(df.groupby(["kind", "closer"]).agg(
        n=("v_n", "size"), expert_acts=("expert_acts", "mean"), act_n=("act_n", "mean"),
        mean_v_n=("v_n", "mean"), mean_v_oracle=("v_oracle", "mean"),
        agree24=("agree24", "mean")).to_string())
    e = df[df["closer"] & df["expert_acts"]]
    veto = e[e["v24"] >= 0]
    print(f"offers of a useful card the expert took or called: {len(e)}; search-24 passes "
          f"{len(veto)}; there v_n {veto['v_n'].mean():+.2f}, oracle "
          f"{veto['v_oracle'].mean():+.2f}")
    print(f"sd of v24 - v_n over decisions: {(df['v24'] - df['v_n']).std():.2f}; useful cards: "
          f"v_n {df[df.closer]['v_n'].mean():+.2f}, oracle {df[df.closer]['v_oracle'].mean():+.2f}")
    print(f"seconds {time.time() - t0:.0f}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
