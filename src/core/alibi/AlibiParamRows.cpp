#include "AlibiParamRows.h"

#include "AlibiSlopes.h"

#include "core/NumberText.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::AlibiParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("AlibiParamRows", text);
}

QString slope(double m)
{
    return NumberText::compact(m, 5);
}

ParamSpec headsRow()
{
    return HeadBias::headsRow(
        AlibiSlopes::biasFamily(),
        u"ALiBi's attention heads H (n_head): each head k = 1..H has its slope m_k of get_slopes(H)"_s, u"heads"_s,
        [](const Params &p) {
            QString text = tr("H, the attention heads. For H a power of two the slopes are m<sub>k</sub> = "
                              "2<sup>−8k/H</sup>; otherwise the 2<sup>⌊log₂H⌋</sup> slopes of that power of two come "
                              "first, then every other slope of twice that power until there are H (get_slopes, Press "
                              "et al. 2022; MPT's gen_slopes gives the same). BLOOM-560m has 16 heads, MPT-7B 32.");
            if (HeadBias::headsValid(AlibiSlopes::biasFamily(), p)) {
                const std::int64_t geometric = AlibiSlopes::geometricHeads(p.alibi.heads);
                text += tr(" Now m<sub>1</sub> = %1 … m<sub>%2</sub> = %3")
                            .arg(slope(AlibiSlopes::of(p.alibi.heads, 1)))
                            .arg(p.alibi.heads)
                            .arg(slope(AlibiSlopes::of(p.alibi.heads, p.alibi.heads)));
                text += geometric == p.alibi.heads ? tr(", one geometric series.")
                                                   : tr("; heads %1 … %2 take the interleave of %3.")
                                                         .arg(geometric + 1)
                                                         .arg(p.alibi.heads)
                                                         .arg(2 * geometric);
            }
            return text;
        });
}

ParamSpec headRow()
{
    return HeadBias::headRow(
        AlibiSlopes::biasFamily(),
        u"the head K whose bias alibi-bias shows, numbered 1..H as in the paper: head K has slope m_K"_s, u"head"_s,
        [](const Params &p) {
            QString text
                = tr("K, the head whose bias the tables and figures show, numbered 1 … H as in the paper: head "
                     "K adds −m<sub>K</sub>·(i − j) to query i's score of key j. Code that numbers heads from 0 "
                     "gives head K the slope of K + 1: check the first head's slope, 2<sup>−8/H</sup> for H a "
                     "power of two.");
            if (HeadBias::headsValid(AlibiSlopes::biasFamily(), p) && p.alibi.head >= 1
                && p.alibi.head <= p.alibi.heads) {
                const double m = AlibiSlopes::of(p.alibi.heads, p.alibi.head);
                text += tr(" Now m<sub>%1</sub> = %2: its bias reaches −1 at distance %3.")
                            .arg(p.alibi.head)
                            .arg(slope(m))
                            .arg(NumberText::compact(1.0 / m, 5));
            }
            return text;
        });
}

ParamSpec maskRow()
{
    // The reference code's form m·j differs from −m(i − j) by m·i in each row: said in the tooltip.
    return HeadBias::maskRow(
        AlibiSlopes::biasFamily(),
        {.choices = {u"causal"_s, u"symmetric"_s},
         .choiceLabels = {u"causal: −m(i − j), −inf after i"_s, u"symmetric: −m|i − j|"_s},
         .help = u"ALiBi's bias: causal -m(i - j) for keys j <= i and -inf after (BLOOM, MPT); symmetric -m|i - j|\n"
                 "      for a bidirectional model (Jina-BERT-v2)"_s,
         .formula = [](const Params &) {
             return tr("causal: query i adds −m(i − j) to its score of key j ≤ i and cannot see later keys (−inf), "
                       "as a decoder does (BLOOM, MPT, Falcon-RW).<br>symmetric: −m|i − j| on both sides, for a "
                       "bidirectional encoder (Jina-BERT-v2). The two agree at and below the diagonal. The reference "
                       "code's form m·j differs from −m(i − j) by m·i in each row, which the softmax ignores under "
                       "the causal mask; without it, in a bidirectional model, it favours the last keys, not the "
                       "near ones.");
         }});
}

} // namespace

QList<ParamSpec> rows()
{
    return {headsRow(), headRow(), maskRow()};
}

} // namespace posenc::AlibiParamRows
