"""Re-export: the derivation of paper 000 (population loss, optimum, train error) now lives in
:mod:`theorycheck.papers.gla.derivations.gla_loss` and writes into :mod:`theorycheck.papers.gla.generated`. This
module keeps the old import path working; it holds no code."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.gla.derivations.gla_loss")
from ..papers.gla.derivations.gla_loss import (A2s, Bs, D1s, GENERATED_PACKAGE, N0s, SCRIPT, b, c,  # noqa: F401
                                               cauchy_schwarz_identity, cauchy_schwarz_pair, check_closed_forms,
                                               closed_forms, d, direct_sums, gam, h_complete, isserlis_blocks, lam,
                                               main, n, noise, q, se2, sqs, stationary_limit, stationary_point_d2,
                                               stationary_point_pair, sw2, train_error_identity, train_error_pair)

if __name__ == "__main__":
    main()
