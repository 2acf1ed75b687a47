"""Re-export: the claims of Figures 1 and 2 (seed lines 170–219) now live in :mod:`.claims_fig1` and
:mod:`.claims_fig2`; the names of earlier versions stay importable from here."""
from .claims_fig1 import (A1SQ, CLOSE_LOG_MARGIN, fig1_caption_vs_legend, fig1_error_bars, fig1_gap,  # noqa: F401
                          fig1_legend_noise, fig1_normalisation, fig1_shape, fig1_sizes, sin_numbers)
from .claims_fig2 import (fig2_simulation, fig2_table, floor_finite_kappa, tanh_numbers,  # noqa: F401
                          task_diversity_transition)
from .fixtures import FIG1_TEACHERS  # noqa: F401
from .settings import FIG1, FIG1_STATED_NOISES, FIG1_TAUS, FIG2, FIG2_KAPPAS, RHO  # noqa: F401
