r"""Every sentence of seed 004 that no claim quotes, assigned: it restates a claim (whose verdict covers it) or it is
not a claim, for a reason of the closed list (:data:`theorycheck.papers.coverage.NOT_A_CLAIM_REASONS`). With the
claims of the section modules, ``PAPER.coverage()["unassigned"]`` is empty.
"""
from __future__ import annotations

from .registry import claims

META, METHOD, BACKGROUND, LIMITATION, RATING = ("heading or metadata", "method description", "background of other work",
                                                 "limitation stated as such", "rating")

# ---------------------------------------------------------------------------------------------- title and overview
claims.not_a_claim((1, 4), META)
claims.not_a_claim(12, META)
claims.not_a_claim(14, METHOD, fragment="这篇论文问:一个以简化线性注意力为基础的上下文学习器,在遇到非线性回归任务 "
                   "$y=f(\\boldsymbol{x}^{\\top}\\boldsymbol{w})+\\varepsilon$ 时,究竟能够提取多少任务信号?")
claims.restates(14, "004-result1", fragment="作者给出的答案是:在指定的高维比例极限与无正则设置下,只有 $f$ 在高斯分布下的一阶 "
                "Hermite 分量进入可学习信号,其余分量进入泛化误差,作用类似额外噪声。")
claims.restates(16, "004-result1", fragment="关键归约是把非线性任务替换为线性任务:任务协方差乘 $a_1^2$,噪声方差从 $\\rho$ 换成 "
                "$\\rho_{\\mathrm{nonlinear}}=\\rho+\\sum_{m\\ne1}a_m^2$。")
claims.restates(16, "004-hermite-basis", fragment="这里 $a_1=\\mathbb E[g f(g)]$,$g\\sim\\mathcal N(0,1)$。")
claims.restates(16, "004-result1", fragment="有了一阶分量,已有线性 ICL 的误差理论便可复用;")
claims.restates(16, "004-interpolation-peak", fragment="没有一阶分量,训练变成无信号回归,误差在预训练样本数接近参数规模时出现插值峰。")
claims.not_a_claim(18, RATING, fragment="论文的贡献是给出一种可计算的表达能力限制:")
claims.restates(18, "004-fig1-shape", fragment="两组小维度合成实验分别展示噪声等效与任务多样性转变。")
claims.restates(18, "004-fig1-caption-vs-legend", fragment="图 1 的数值解释需要注意正文公式与图例的尺度不一致,详见第四部分;")
claims.restates(18, "004-fig2-simulation", fragment="图 2 更直接地展示了抬高的误差下限。")
claims.not_a_claim(18, META, fragment="(Sec. 3,PDF pp. 3–4,Result 1、Figs. 1–2。)")
claims.not_a_claim((20, 31), META)

# ---------------------------------------------------------------------------------------------- one: motivation
claims.not_a_claim(33, META)
claims.not_a_claim(35, BACKGROUND, fragment="线性回归 ICL 的已有理论能够分析预训练规模、上下文长度与任务多样性如何影响测试误差,"
                   "但教师函数本身是线性的。这很容易把“能够从上下文估计线性规则”与“能够从上下文学习一般规则”混在一起。")
claims.not_a_claim(35, METHOD, fragment="作者把教师扩展到单指标模型(single-index model):任务由方向 $\\boldsymbol w$ 指定,"
                   "标签由该方向上的投影经过固定非线性 $f$ 得到。")
claims.not_a_claim(37, METHOD, fragment="“单指标”表示非线性只依赖一个标量 $\\boldsymbol{x}^{\\top}\\boldsymbol w$,"
                   "并不表示任务方向已知。预训练要跨任务学习可复用的参数;测试时面对新的 $\\boldsymbol w$,"
                   "只能利用当前 prompt 中的例子预测查询标签。")
claims.not_a_claim(37, RATING, fragment="该设置保留了任务推断,同时把非线性的来源控制得很清楚。")
claims.not_a_claim(39, METHOD, fragment="作者关注的是 reduced linear-attention predictor,而非任意含有线性注意力模块的完整网络。")
claims.restates(39, "004-predictor-and-ridge", fragment="其输出对查询输入始终线性,")
claims.not_a_claim(39, METHOD, fragment="因此一个自然问题是:非线性目标虽然无法被完整表达,是否会以某种方式改变学习过程?")
claims.restates(39, "004-result1", fragment="论文的答案不是简单的“完全学不了”,而是把目标拆成可学习投影与不可学习残差,"
                "进而计算后者如何影响有限样本误差。")
claims.not_a_claim(39, META, fragment="(Sec. 1,PDF pp. 1–2。)")

# ---------------------------------------------------------------------------------------------- two: method
claims.not_a_claim((41, 43), META)
claims.not_a_claim((45, 47), METHOD)
claims.not_a_claim(49, METHOD, fragment="输入独立采样自 $\\mathcal N(\\boldsymbol0,I_d/d)$,标签噪声独立且方差为 $\\rho$。"
                   "同一 prompt 共享同一个任务 $\\boldsymbol w$。预训练先从 $\\mathcal N(\\boldsymbol0,C_{\\mathrm{train}})$ "
                   "抽取 $k$ 个任务,均匀分配到 $n$ 条序列;测试任务重新从 $\\mathcal N(\\boldsymbol0,C_{\\mathrm{test}})$ 抽取,"
                   "允许任务分布发生变化。")
claims.not_a_claim(49, META, fragment="(Sec. 2,PDF p. 2,Eq. (1)。)")
claims.not_a_claim(61, META)
claims.not_a_claim(63, METHOD)
claims.not_a_claim(83, META)
claims.not_a_claim((103, 105), META)
claims.not_a_claim(109, META, fragment="(Eq. (8),PDF p. 3。)")

# ---------------------------------------------------------------------------------------------- three: analysis
claims.not_a_claim((111, 113), META)
claims.not_a_claim(125, META)
claims.not_a_claim(138, META)
claims.not_a_claim(152, META)
claims.not_a_claim(162, META, fragment="(Eq. (10),PDF p. 3;Eq. (15),PDF p. 10。)")

# ---------------------------------------------------------------------------------------------- four: the figures
claims.not_a_claim((166, 172), META)
claims.not_a_claim(174, METHOD, fragment="横轴是序列比例 $\\tau=n/d^2$,纵轴是对数刻度的 ICL simulation error,数值越低越好。")
claims.not_a_claim(176, META)
claims.not_a_claim(177, METHOD)
claims.not_a_claim(181, LIMITATION, fragment="比较角色是理论等效模型和原始线性基准,没有完整 Transformer 或其他非线性学习器的性能比较。")
claims.restates(183, "004-fig1-normalisation", fragment="解释这张图时必须处理尺度问题。")
claims.not_a_claim(188, METHOD, fragment="这是本次依据定义补充的解析计算。")
claims.not_a_claim((192, 196), META)
claims.not_a_claim(198, METHOD, fragment="横轴是对数刻度的任务比例 $\\kappa=k/d$,纵轴为 ICL 测试平方误差,越低越好。")
claims.restates(198, "004-fig2-simulation", fragment="绿色水平线是新的非线性下限,灰色点线是原标签噪声下限 $\\rho=0.1$。")
claims.not_a_claim(212, META, fragment="(Sec. 3,Eq. (11),PDF pp. 3–4。)")

# ---------------------------------------------------------------------------------------------- five: conclusion
claims.not_a_claim(221, META)
claims.restates(223, "004-result1", fragment="论文最有用的贡献是把函数复杂度转换为两个可计算量:一阶信号强度 $a_1^2$ 和非一阶残差能量 "
                "$\\rho_{\\mathrm{nonlinear}}-\\rho$。")
claims.restates(223, "004-floor", fragment="在所分析的预测器中,增加数据主要解决估计问题;提高能够学习的函数阶数,则需要改变查询到输出的函数形式。")
claims.not_a_claim(223, BACKGROUND, fragment="非线性读出或特征变换因而是自然方向,原文 Introduction 也据此区分了包含非线性读出的同期工作。")
claims.not_a_claim(225, META, fragment="实际理解有三个关键落点。")
claims.restates(225, "004-teaching-table", fragment="第一,先查看 $\\mathbb E[g f(g)]$,不要凭函数的 Taylor 次数判断它是否有线性信号。")
claims.restates(225, "004-scalings", fragment="第二,分清 $\\alpha$、$\\kappa$、$\\tau$:上下文统计噪声、任务覆盖和参数估计样本量是不同问题。")
claims.restates(225, "004-fig1-normalisation", fragment="第三,比较线性与非线性教师时保持信号尺度和 MSE 单位一致;图 1 的归一化缺口正说明"
                "这一步会改变数值解释。")
claims.not_a_claim(227, LIMITATION)
claims.not_a_claim(229, LIMITATION)
