r"""Seed coverage of paper 001: every sentence of the seed that no claim quotes is declared to restate a claim or not to
be a claim, for a reason of the closed list (:data:`theorycheck.papers.coverage.NOT_A_CLAIM_REASONS`).

Three former claims are declared here instead (re-audit of issue 21): seed line 21's account of Du et al.'s GPT-2
experiment (background of other work; was 001-gpt2-matches-kf), line 74's training recipe (a method description; its
stated values are the Params of :mod:`.settings`; was 001-training-setup) and lines 110–113 (ratings; was
001-ratings); their former claim functions (:func:`gpt2_matches_kf`, :func:`training_setup`, :func:`ratings`) are
at the end of this module and yield what those claims yielded. Registered after every claim
(:mod:`theorycheck.papers.lds` imports this module after :mod:`.claims`).
"""
from __future__ import annotations

from ...verdicts import rules
from .registry import claims

__all__: list[str] = []

_HEADINGS = (1, 3, 11, 15, 29, 31, 42, 44, 52, 56, 64, 72, 76, 80, 82, 89, 95, 102, 108)
_METADATA = (5, 6, 7, 8, 9)

for _n in _HEADINGS + _METADATA:
    claims.not_a_claim((_n, _n), "heading or metadata")

# line 13: the one-sentence summary restates the results
claims.restates((13, 13), "001-thm41-global-optimum",
                fragment="本文给出单层线性注意力在「噪声线性动力系统（LDS）」上下文学习任务里的最优权重显式解")
claims.restates((13, 13), "001-gd-identity", fragment="证明它在一阶自回归近似（AR(1)）下等价于对自回归最小二乘损失做一步梯度下降")
claims.restates((13, 13), "001-pcg-reading-supported",
                fragment=r"并通过实验把 AR(s)（\(s\ge2\)）的最优解结构与预条件共轭梯度（PCG）方法联系起来")
claims.restates((13, 13), "001-kf-one-layer", fragment="从而为「Transformer 预测精度能逼平 Kalman 滤波」这一经验现象提供了理论解释")

# lines 17–21: the state of the field and Du et al.'s experiment
claims.not_a_claim((17, 17), "background of other work")
claims.not_a_claim((19, 19), "background of other work")
claims.not_a_claim((21, 21), "background of other work",
                   fragment="核心矛盾：经验上 Du 等人发现 GPT-2 在预测 LDS 下一观测时，精度能和 Kalman 滤波（KF）——")
claims.not_a_claim((21, 21), "background of other work",
                   fragment="——打平，甚至在 KF 可证最优的区间也如此；但其内部机制完全没人解释清楚。理论（注意力做什么）和经验（为何这么强）之间缺一座桥。")

# lines 23–40: goal, approach and method outline
claims.not_a_claim((23, 23), "method description")
claims.not_a_claim((25, 25), "method description",
                   fragment=r"切入角度：作者借用系统辨识里的「非正常学习（improper learning）」思路——不去估计 \(A,c,\Sigma_w,\sigma_v\) "
                            r"这些系统参数，而是直接把「下一观测」近似成「最近 \(s\) 个观测的线性函数」，即一个 AR(s) 过程。")
claims.restates((25, 25), "001-ar-approximation-exponential",
                fragment=r"在 KF 收敛条件下，这个自回归近似能以指数速度逼近真实条件期望 \(\mathbb{E}[y_{t+1}\mid y_t,\dots,y_1]\)，"
                         r"于是问题就化归为「带非 i.i.d. 噪声的线性回归」")
claims.not_a_claim((25, 25), "method description", fragment="从而能接上「注意力=优化器」的分析框架。")
claims.not_a_claim((27, 27), "method description", fragment="核心 idea：用「非正常学习的 AR(s) 自回归损失」当作上下文损失，")
claims.not_a_claim((33, 33), "method description")
claims.not_a_claim((35, 35), "method description", fragment=r"数据与近似：序列由双重高斯噪声污染的 LDS（公式 "
                                                            r"\(x_{t+1}=Ax_t+w_t,\ y_t=c^\top x_t+v_t\)）产生。")
claims.restates((35, 35), "001-ar-approximation-exponential",
                fragment=r"借 Tsiamis–Pappas 的结果把「未来观测」写成「过去 \(s\) 个观测的线性组合 + 指数衰减偏置 + 噪声」，"
                         r"从而定义 AR(s) 自回归损失 \(L_{\mathrm{AR}(s)}(w)\) 作为上下文目标。")
claims.not_a_claim((36, 36), "method description")
claims.not_a_claim((37, 37), "method description")
claims.restates((38, 38), "001-gd-identity",
                fragment=r"解释：把最优解代回前向传播——AR(1) 恰好是「从 0 出发对 \(L_{\mathrm{AR}(1)}\) 做一步 GD」；")
claims.restates((38, 38), "001-pcg-reading-supported",
                fragment=r"AR(s)（\(s\ge2\)）则由实验观测到的权重稀疏模式 + Hessian/梯度的分块结构，对上「两步 PCG / 增广 Krylov」迭代。")
claims.not_a_claim((40, 40), "method description")

# lines 46–54: the reduction and Lemma 4.1
claims.not_a_claim((46, 46), "method description",
                   fragment=r"直接分析 LDS 数据的难点在于 \(y_T\) 依赖整段历史 \(x_0,w_{1:T},v_{1:T}\)，损失里出现高阶矩。作者不走「先辨识系统参数再用 "
                            r"KF」的正常学习路线，而是采用非正常学习：把未来观测写成最近 \(s\) 个观测的线性函数。基于 Tsiamis–Pappas 的展开式，")
claims.not_a_claim((46, 46), "method description", fragment="，对应优化目标")
claims.not_a_claim((48, 48), "method description")
claims.not_a_claim((50, 50), "method description",
                   fragment=r"其中 \(\bar y_t:=[y_t,\dots,y_{t+s-1}]^\top\)。这一步的价值在于：它把「带历史耦合的非 i.i.d. 序列」变成了一个")
claims.not_a_claim((50, 50), "method description",
                   fragment="，从而能复用 i.i.d. 设定下「注意力实现对上下文最小二乘损失做优化」的整套分析。")
claims.restates((50, 50), "001-kf-one-layer", fragment="，这正是「Transformer 逼平 KF」的理论入口。")
claims.not_a_claim((54, 54), "method description", fragment="求最优权重要解损失的驻点方程，但因为数据全历史耦合，方程里项数爆炸、高阶矩难处理。")
claims.not_a_claim((54, 54), "rating", fragment=r"，对 \(s\ge2\) 时定位可证最优解至关重要；")
claims.restates((54, 54), "001-lemma41-trained-support",
                fragment="实验进一步验证训练得到的极小点确实落在这个稀疏模式上（用支撑集的 Jaccard 距离度量）。")

# lines 58–62: Theorem 4.1
claims.not_a_claim((58, 58), "method description", fragment=r"在 \(s=1\)（AR(1)）情形，作者用 Lemma 4.1 的结构简化 + ")
claims.not_a_claim((58, 58), "method description", fragment="攻克全历史依赖，")
claims.restates((62, 62), "001-kf-one-layer", fragment="，也直接为 GPT-2 逼平 KF 的现象提供了机制假说。")

# lines 74–93: experiments
claims.not_a_claim((74, 74), "method description")
claims.not_a_claim((78, 78), "method description")
claims.restates((83, 83), "001-thm41-trained")
claims.restates((92, 92), "001-lemma41-trained-support")

# lines 97–100: highlights (the summary's evaluation) and what they restate
claims.not_a_claim((97, 97), "rating", fragment="把非 i.i.d. 难点转嫁给系统辨识工具：用「非正常学习 + AR(s) 近似」这一步，巧妙地")
claims.restates((97, 97), "001-ar-loss-convex", fragment="把全历史耦合的难题转成凸最小二乘")
claims.not_a_claim((97, 97), "rating", fragment="，使 i.i.d. 设定的整套「注意力即优化器」分析得以复用——这是全文最关键的一招。")
claims.restates((98, 98), "001-lemma41-reduces-search", fragment="，从而把高维搜索缩成小参数类")
claims.not_a_claim((98, 98), "rating", fragment="，是「用分布对称性换可解性」的漂亮案例。")
claims.restates((99, 99), "001-isserlis-moments",
                fragment="Isserlis 定理破高阶矩：面对高斯数据的高阶矩，直接调用 Isserlis（Wick）定理做矩分解")
claims.not_a_claim((99, 99), "rating", fragment="，是处理非 i.i.d. 期望损失的可迁移技巧。")
claims.not_a_claim((100, 100), "rating", fragment="从 GD 升级到 PCG 的视角：揭示「")
claims.not_a_claim((100, 100), "rating", fragment="，这个「数据窗口决定隐式算法阶数」的直觉可迁移到其他 ICL 分析。")

# lines 104–113: limitations and ratings
claims.not_a_claim((104, 104), "limitation stated as such",
                   fragment=r"：Theorem 4.1 只完整解决了 AR(1)；\(s\ge2\) 仅由 Lemma 4.1 缩小了候选类、并靠实验对上 PCG，缺一个像定理那样的可证全局最优。"
                            r"作者把它列为最紧迫的后续工作（可先在 \(\bar Y\) 为 Toeplitz 的平稳 LDS 区间下简化求解）。")
claims.not_a_claim((105, 105), "limitation stated as such")
claims.not_a_claim((106, 106), "limitation stated as such")
claims.not_a_claim((110, 113), "rating")


# ----------------------------------------------------------------- the former claims' functions (kept importable)
def gpt2_matches_kf(ctx):
    """Not a claim since the re-audit of issue 21: seed line 21's account of Du et al.'s experiment (GPT-2 matches the
    Kalman filter) is declared background of other work (above). Kept importable (public API); yields what
    the former claim 001-gpt2-matches-kf yielded."""
    yield rules.underspecified("GPT-2 matches the Kalman filter on LDS data (Du et al.)",
                               ["GPT-2 training and evaluation setup of Du et al. (another paper's experiment)"],
                               scope="not attempted")


def training_setup(ctx):
    """Not a claim since the re-audit of issue 21: seed line 74 describes the training method (declared a method
    description above; its stated values are the Params of :mod:`.settings`). Kept importable (public
    API); yields what the former claim 001-training-setup yielded."""
    yield rules.underspecified("the paper's training setup can be matched", [
        "learning rate and warm-up length", "weight decay", "gradient-clip threshold", "batch sizes for s ≥ 2",
        "initialisation", "laws of the eigenvalues of A, of x₀, Σ_w and σ_v"], scope="not attempted; the toolkit's "
        "recipe (C8) and sizes are in the run parameters")


def ratings(ctx):
    """Not a claim since the re-audit of issue 21: seed lines 110–113 are ratings (declared above).
    Kept importable (public API); yields what the former claim 001-ratings yielded."""
    yield rules.underspecified("star ratings", ["a measurable statement (opinions of the summary's author)"],
                               scope="not attempted")

