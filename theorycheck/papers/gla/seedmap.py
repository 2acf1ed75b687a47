"""The sentences of the seed of paper 000 that no claim quotes: each restates a claim (its verdict covers it) or is not
a claim, for a reason of the closed list (:data:`theorycheck.papers.coverage.NOT_A_CLAIM_REASONS`). Declared in seed
order; ``papers.load("gla").coverage()["unassigned"]`` is empty when every sentence is assigned."""
from __future__ import annotations

from .registry import claims

__all__: list[str] = []

HEADING, METHOD, BACKGROUND = "heading or metadata", "method description", "background of other work"
LIMITATION, RATING = "limitation stated as such", "rating"

# ---------------------------------------------------------------- title, metadata, headings
for _line in (1, 3, 5, 6, 7, 8, 9, 11, 15, 27, 29, 42, 52, 54, 56, 62, 64, 68, 77, 84, 92, 99, 105):
    claims.not_a_claim((_line, _line), HEADING)

# ---------------------------------------------------------------- background and motivation (lines 17–23)
claims.not_a_claim((17, 17), BACKGROUND)
claims.not_a_claim((19, 19), BACKGROUND)
claims.not_a_claim((21, 21), BACKGROUND)
claims.not_a_claim((23, 23), METHOD)   # the aim of the paper; its results are the claims of lines 13, 25 and 50
claims.not_a_claim((25, 25), METHOD, fragment="核心 idea：用一阶自回归过程建模非平稳性——让回归权重 $w_i=\\gamma w_{i-1}+e_i$ 随 "
                                             "token 缓慢漂移；")

# ---------------------------------------------------------------- the framework and its flowchart (lines 31–40)
claims.not_a_claim((31, 31), METHOD)
for _line in (33, 34, 35, 39, 40):
    claims.not_a_claim((_line, _line), METHOD)
claims.restates((36, 36), "000-thm1-gradient-flow")
claims.restates((37, 37), "000-inverted-u")
claims.restates((38, 38), "000-thm3-test-error")

# ---------------------------------------------------------------- key designs (lines 44–50)
claims.not_a_claim((44, 44), METHOD, fragment="一阶自回归非平稳任务模型：把\"时变\"变成可解析的对象。")
claims.not_a_claim((44, 44), METHOD, fragment="现有 ICL 理论都假设 prompt 内权重固定 $w$，本文则让每个位置的标签由各自的权重生成 "
                                             "$y_i=\\langle w_i,x_i\\rangle$，并令权重沿随机游走演化 $w_i=\\gamma w_{i-1}+e_i$，"
                                             "其中 $0<\\gamma\\le 1$ 是自回归系数（控制时间相关性），"
                                             "$e_i\\sim\\mathcal N(0,\\sigma_e^2 I)$ 是漂移噪声。")
claims.restates((46, 46), "000-learnable-recency-bias", fragment="GLA = 指数加权累加 = 可学习的近因偏置。")
claims.not_a_claim((46, 46), METHOD, fragment="作者为了可分析进一步用了单一全局 $\\lambda$（而非原版 GLA 的逐 token 数据相关门控），"
                                             "并把 $W_Q,W_K$ 合并为 $W_{KQ}$，")
claims.restates((48, 48), "000-thm1-gradient-flow", fragment="梯度流收敛到闭式全局最优。")
claims.restates((48, 48), "000-thm1-effective-covariance",
                fragment="这个闭式解把全局最优的位置直接参数化为 $\\lambda,\\gamma$ 的函数，是后面算误差的支点；")
claims.restates((50, 50), "000-inverted-u", fragment="训练误差关于 $\\lambda$ 呈倒 U 形 → 最优 $\\lambda^*<1$。")
claims.restates((50, 50), "000-lambda-equals-gamma-not-optimal", fragment="值得注意的是，")

# ---------------------------------------------------------------- the experiment tables (lines 57–66)
claims.not_a_claim((57, 57), METHOD, fragment="单层 GLA，变 $\\gamma,\\lambda$（$d{=}10,n{=}100$）\t不同 $\\lambda$")
claims.restates((57, 57), "000-experiment-inverted-u", fragment="（验证 Thm.2/3）")
claims.not_a_claim((58, 58), METHOD, fragment="单层 GLA vs LMS / RLS（序列长 1000，1 万次 MC）\t经典自适应滤波")
# GLA's weights are fixed across sequences while LMS/RLS adapt per sequence: the design of the comparison
claims.not_a_claim((58, 58), METHOD, fragment="，且权重跨序列共享、无需逐序列重训")
claims.not_a_claim((59, 59), METHOD, fragment="GatedLinearGPT2 vs LinearGPT2（SST-2 情感分类，$K{\\in}\\{1,5,10,15,20\\}$ "
                                             "demos）\t线性注意力")
claims.not_a_claim((60, 60), METHOD, fragment="GatedLinearGPT2 vs LinearGPT2（MNLI 自然语言推理，$K{\\in}\\{1,3,5,7,10\\}$）"
                                             "\t线性注意力")
claims.not_a_claim((65, 65), METHOD, fragment="GLA 层数（$\\gamma{=}0.95$）")
claims.restates((65, 65), "000-multi-timescale-layers",
                fragment="多层 GLA 像多个不同时间尺度的自适应滤波器叠加，可同时捕捉短期波动与长期趋势")
claims.not_a_claim((66, 66), METHOD, fragment="收敛性（单层最优 $\\lambda$ / 多层 $\\lambda{=}0.85$）")

# ---------------------------------------------------------------- findings (lines 70–75)
claims.restates((70, 70), "000-lambda-star-below-1", fragment="遗忘是有最优量的：")
claims.restates((71, 71), "000-gla-below-filters",
                fragment="门控 = 隐式自适应滤波：单层 GLA 在 AR(1) 上的行为对应一个自适应滤波器，但因权重跨序列共享、表达力更高，")

# ---------------------------------------------------------------- highlights (lines 79–81)
claims.restates((79, 79), "000-increment-is-the-gate",
                fragment="把\"门控为什么有用\"翻译成一句可证明的话：门控 $=$ 可学习的记忆衰减 $=$ 近因偏置，恰好是非平稳序列的最优归纳偏置；")
claims.restates((79, 79), "000-lambda1-linear-attention",
                fragment="$\\lambda=1$ 时严格退化为线性注意力，使得\"GLA vs LA\"的比较干净可解。")
claims.restates((80, 80), "000-filters-optimal-forgetting", fragment="，与自适应滤波里最优遗忘因子/步长的经典直觉完全对齐。")
claims.restates((81, 81), "000-filters-optimal-forgetting",
                fragment="架起 ICL 与自适应信号处理两个社区的桥：GLA 用前向计算\"隐式自适应\"，而 LMS/RLS 靠显式参数更新——")
claims.not_a_claim((81, 81), RATING, fragment="，提供了理解非平稳学习的新视角。")

# ---------------------------------------------------------------- limitations, ratings (lines 86–97)
for _line in (86, 87, 88, 90):
    claims.not_a_claim((_line, _line), LIMITATION)
claims.not_a_claim((89, 89), LIMITATION, fragment="优化景观待解：")
claims.not_a_claim((89, 89), LIMITATION, fragment="，但缺少证明。")
for _line in (94, 95, 96, 97):
    claims.not_a_claim((_line, _line), RATING)

# ---------------------------------------------------------------- the tables again, in LaTeX delimiters (lines 100–107)
claims.restates((100, 100), "000-experiment-inverted-u", fragment="训练/测试损失随 \\(\\lambda\\) 呈倒 U 形，最优 \\(\\lambda^*<1\\)")
claims.restates((100, 100), "000-lambda-importance", fragment="\\(\\gamma\\) 越小、噪声影响越大，越需要合适的 \\(\\lambda\\)（验证 Thm.2/3）")
claims.not_a_claim((100, 100), METHOD, fragment="单层 GLA，变 \\(\\gamma,\\lambda\\)（\\(d{=}10,n{=}100\\)）\t不同 \\(\\lambda\\)")
claims.not_a_claim((101, 101), METHOD, fragment="单层 GLA vs LMS / RLS（序列长 1000，1 万次 MC）\t经典自适应滤波")
claims.restates((101, 101), "000-gla-vs-lms-rls", fragment="GLA 训练误差更低")
claims.restates((101, 101), "000-lms-rls-numbers", fragment="如 \\(\\gamma{=}0.8\\) 时 LMS=0.264、RLS=0.256，GLA 更低")
claims.not_a_claim((101, 101), METHOD, fragment="，且权重跨序列共享、无需逐序列重训")
claims.restates((102, 102), "000-sst2")
claims.restates((103, 103), "000-mnli")
claims.not_a_claim((106, 106), METHOD, fragment="GLA 层数（\\(\\gamma{=}0.95\\)）")
claims.restates((106, 106), "000-depth-ablation", fragment="层数增加，训练/测试性能持续提升")
claims.restates((106, 106), "000-multi-timescale-layers",
                fragment="多层 GLA 像多个不同时间尺度的自适应滤波器叠加，可同时捕捉短期波动与长期趋势")
claims.not_a_claim((107, 107), METHOD, fragment="收敛性（单层最优 \\(\\lambda\\) / 多层 \\(\\lambda{=}0.85\\)）")
claims.restates((107, 107), "000-linear-convergence", fragment="单层与多层均呈线性收敛")
claims.restates((107, 107), "000-gate-stabilises-gradients", fragment="门控机制稳定了跨层梯度传播（多层收敛理论留待将来）")
