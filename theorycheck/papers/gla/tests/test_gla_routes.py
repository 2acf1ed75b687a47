"""Paper 000: one of each thing, validated once (issue 22, items 2 and 5).

Every quantity the theory computes by several routes has one named reference route, and the other routes are
tested against it here: the moment sums (:data:`~theorycheck.papers.gla.theory.sums.ROUTES`, reference: the direct
O(n) sums), the train error (:data:`~theorycheck.papers.gla.theory.errors.TRAIN_ERROR_ROUTES`, reference: the
generated closed form), and the hand-written full-parameter loss (against the exact Gaussian expectation of the
actual predictor, expanded in SymPy). The public functions check their arguments once; the routes behind them trust
the checked values.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest
import sympy as sp

from theorycheck.papers.gla import theory as gla
from theorycheck.papers.gla.theory import errors, flows, law, sums


def _random_laws(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield (float(rng.uniform(0.05, 1.0)), float(rng.choice([rng.uniform(0.05, 1.0), 1.0])), int(rng.integers(1, 80)),
               int(rng.integers(1, 12)), float(rng.uniform(0.0, 3.0)), float(rng.uniform(0.0, 1.0)),
               float(rng.choice([0.0, rng.uniform(0.0, 2.0)])))


def test_moment_sum_routes_agree_with_the_reference_route():
    assert sums.REFERENCE_ROUTE in sums.ROUTES and set(sums.ROUTES) == {"closed form", "direct sum"}
    worst, used = 0.0, set()
    for lam, gamma, n, _, sw2, se2, _ in _random_laws(1, 300):
        ref = sums.ROUTES[sums.REFERENCE_ROUTE](lam, gamma, n, sw2 + 0.1, se2)
        for name, route in sums.ROUTES.items():
            if sums.base_gap(lam, gamma) <= sums.CLOSED_FORM_GAP and name == "closed form":
                continue                                  # the removable singularities: auto never uses it there
            got = route(lam, gamma, n, sw2 + 0.1, se2)
            if got is None:
                continue
            used.add(name)
            for k in ("D1", "B", "A2", "N0", "s_q"):
                worst = max(worst, abs(getattr(got, k) - getattr(ref, k)) / abs(getattr(ref, k)))
    assert used == set(sums.ROUTES) and worst < 1e-9
    # the method names of moment_sums select the routes of the table
    assert gla.moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="direct sum").method == "direct sum"
    assert gla.moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="closed").method == "closed form"


def test_train_error_routes_agree_with_the_reference():
    assert errors.TRAIN_ERROR_REFERENCE in errors.TRAIN_ERROR_ROUTES
    for lam, gamma, n, d, sw2, se2, noise in _random_laws(2, 40):
        sw2 += 0.05
        ref = gla.train_error(lam, gamma, n, d, sw2, se2, noise)
        L = np.eye(d)
        opt = gla.optimal_parameters(lam, gamma, n, L, sw2, se2, noise)
        routes = {"eigenvalues of Λ (general Λ)": gla.train_error_general(lam, gamma, n, L, sw2, se2, noise),
                  "loss L(Γ*) at the closed-form optimum": gla.population_loss(opt.Gamma, lam, gamma, n, L, sw2, se2,
                                                                               noise),
                  "covariance K of the weights": gla.train_error_from_covariance(
                      lam, gla.drift_covariance(n, gamma, sw2, se2), d, noise),
                  "full-parameter loss at u = b = 0, Γ = Γ*": gla.full_parameter_loss(
                      np.zeros(d), 1.0, opt.Gamma.T, np.zeros(d), lam, gamma, n, d, sw2, se2, noise)}
        assert set(routes) | {errors.TRAIN_ERROR_REFERENCE} == set(errors.TRAIN_ERROR_ROUTES)
        for name, val in routes.items():
            assert val == pytest.approx(ref, rel=1e-9, abs=1e-12), name


def _exact_full_loss(u, v, A, b, lam, gamma, n, d, sw2, se2, noise):
    """E[(ŷ − y_{n+1})²] of the actual GLA predictor (W_V last row (uᵀ, v), W_KQ[:, :d] = [A; bᵀ], every other entry
    0), expanded as a polynomial in independent standard normals and integrated monomial by monomial
    (E[z^k] = (k − 1)!! for even k, 0 for odd k): exact rational arithmetic, no moment formula re-typed."""
    xs = [[sp.Symbol(f"x{i}_{k}") for k in range(d)] for i in range(n + 1)]
    z0 = [sp.Symbol(f"z0_{k}") for k in range(d)]
    es = [[sp.Symbol(f"e{i}_{k}") for k in range(d)] for i in range(n + 1)]
    eps = [sp.Symbol(f"eps{i}") for i in range(n + 1)]
    w = [sp.sqrt(sw2) * z for z in z0]
    ys = []
    for i in range(n + 1):
        w = [gamma * wk + sp.sqrt(se2) * ek for wk, ek in zip(w, es[i])]
        ys.append(sum(wk * xk for wk, xk in zip(w, xs[i])) + sp.sqrt(noise) * eps[i])
    Z = [sp.Matrix(xs[i] + [ys[i] if i < n else 0]) for i in range(n + 1)]
    WV, WKQ = sp.zeros(d + 1, d + 1), sp.zeros(d + 1, d + 1)
    for k in range(d):
        WV[d, k], WKQ[d, k] = u[k], b[k]
        for j in range(d):
            WKQ[k, j] = A[k][j]
    WV[d, d] = v
    S = sp.zeros(d + 1, d + 1)
    for i in range(n + 1):
        S += lam ** (n - i) * Z[i] * Z[i].T
    err = sp.Poly(sp.expand(((WV * S * WKQ * Z[n])[d] - ys[n]) ** 2),
                  *[s for row in xs for s in row], *z0, *[s for row in es for s in row], *eps)
    total = 0
    for mon, c in err.terms():
        if all(k % 2 == 0 for k in mon):
            total += c * sp.prod([sp.factorial2(k - 1) if k else 1 for k in mon])
    return sp.nsimplify(total)


@pytest.mark.parametrize("n,d", [(2, 1), (1, 2)])
def test_full_parameter_loss_is_the_exact_expectation_of_the_predictor(n, d):
    """The hand-written full-parameter loss (flows._full_loss: E[T₁²], E[T₂²], E[T₁T₂] and the query token's own
    term) against the exact expectation of the predictor itself: a cross-check of the hand-written moment form."""
    R = sp.Rational
    u = [R(2, 5), R(-1, 5)][:d]
    A = [[R(1, 3), R(1, 7)], [R(-1, 2), R(1, 4)]]
    A = [row[:d] for row in A[:d]]
    b = [R(1, 2), R(1, 3)][:d]
    v = R(-3, 4)
    exact = _exact_full_loss(u, v, A, b, R(7, 10), R(9, 10), n, d, R(1), R(1, 5), R(1, 10))
    got = gla.full_parameter_loss(np.array(u, float), float(v), np.array(A, float), np.array(b, float), 0.7, 0.9, n, d,
                                  1.0, 0.2, 0.1)
    assert got == pytest.approx(float(exact), rel=1e-13)


@pytest.mark.parametrize("d", [1, 2, 3, 6])
def test_full_gradient_is_the_complex_step_derivative_of_the_loss(d):
    """The analytic gradient of the full-parameter loss (the flows' and searches' route) against the reference: the
    complex-step derivative of the loss itself (exact to rounding for a polynomial), at random points and scales."""
    rng = np.random.default_rng(d)
    for noise, scale in ((0.0, 0.3), (0.1, 1.0), (0.05, 5.0)):
        loss, grad, unpack = flows.full_objective(0.8, 0.9, 7, d, 1.0, 0.1, noise)
        th = scale * rng.standard_normal(2 * d + 1 + d * d)
        ref = flows.complex_step_gradient(loss, th)
        assert np.max(np.abs(grad(th) - ref)) <= 1e-12 * np.max(np.abs(ref))


def _count_checks(monkeypatch):
    """Wrap check_law / check_lam wherever the theory bound them; return the call counter."""
    calls = {"check_law": 0, "check_lam": 0}
    for name in calls:
        orig = getattr(law, name)

        def wrapper(*a, _orig=orig, _name=name, **k):
            calls[_name] += 1
            return _orig(*a, **k)
        for modname, mod in list(sys.modules.items()):
            if modname.startswith("theorycheck.papers.gla.theory") and getattr(mod, name, None) is orig:
                monkeypatch.setattr(mod, name, wrapper)
    return calls


@pytest.mark.parametrize("call,law_checks", [
    (lambda: gla.train_error(0.7, 0.8, 20, 3, 1.0, 0.1), 1),
    (lambda: gla.optimal_parameters(0.7, 0.8, 20, np.eye(3), 1.0, 0.1), 1),
    (lambda: gla.test_error(0.7, 0.8, 20, np.eye(3), 1.0, 0.1, test_n=40), 1),
    (lambda: gla.optimal_lambda(0.8, 20, 3, 1.0, 0.1, grid_size=21), 0),
    (lambda: gla.gla_squared_errors(0.7, 0.8, 5, np.eye(2), 1.0, 0.1, n_samples=10), 1),
])
def test_public_functions_check_their_arguments_once(monkeypatch, call, law_checks):
    calls = _count_checks(monkeypatch)
    call()
    assert calls["check_law"] == law_checks
    assert calls["check_lam"] == law_checks          # λ only through check_law, never a second time
