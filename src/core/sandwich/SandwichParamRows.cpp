#include "SandwichParamRows.h"

#include "SandwichBias.h"
#include "core/TrContext.h"

#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc::SandwichParamRows {

namespace {

constexpr TrContext tr {"SandwichParamRows"};

bool headDimValid(const Params &p)
{
    return p.sandwich.headDim >= 1 && p.sandwich.headDim <= SandwichParams::kMaxHeadDim;
}

ParamSpec headsRow()
{
    // Its words are SandwichWords.json's; the scales at the parameters follow them.
    return HeadBias::headsRow(SandwichBias::biasFamily(), [](const Params &p) {
        if (!HeadBias::headsValid(SandwichBias::biasFamily(), p))
            return QString();
        return tr(" Now head 1 × %1, head %2 × 0.125.")
            .arg(NumberText::compact(1.0 / SandwichBias::scale(p.sandwich.heads, 1), 5))
            .arg(p.sandwich.heads);
    });
}

ParamSpec headRow()
{
    return HeadBias::headRow(SandwichBias::biasFamily(), [](const Params &p) {
        if (!HeadBias::headsValid(SandwichBias::biasFamily(), p) || p.sandwich.head < 1
            || p.sandwich.head > p.sandwich.heads)
            return QString();
        return tr(" Now 8K/H = %1.")
            .arg(NumberText::compact(SandwichBias::scale(p.sandwich.heads, p.sandwich.head), 5));
    });
}

ParamSpec headDimRow()
{
    ParamSpec s = ParamRows::integer(
        u"sandwich-head-dim"_s, ParamGroup::Family, [](Params &p) -> std::int64_t & { return p.sandwich.headDim; },
        [](const Params &) { return std::pair<std::int64_t, std::int64_t>(1, SandwichParams::kMaxHeadDim); });
    s.help = u"the per-head dim d NeMo passes as hidden_size (hidden_size // num_attention_heads, or kv_channels):\n"
             "      the sum runs over inv_freq_k = 1/10000^(2k/d), k = 1..ceil(d/2)"_s;
    s.label = u"sandwich_head_dim"_s;
    s.controlMin = 0;
    s.controlMax = SandwichParams::kMaxHeadDim;
    s.idle = ParamRows::familyIdle(Encoding::Sandwich);
    s.formula = [](const Params &p) {
        QString text = tr("d, the per-head dim (NeMo passes hidden_size // num_attention_heads, or kv_channels, as "
                          "the module's hidden_size). The sum runs over inv_freq<sub>k</sub> = 1/10000<sup>2k/d</sup> "
                          "for k in torch.arange(1, d/2 + 1): k = 1 … ⌈d/2⌉, so an odd d takes one term more than "
                          "d/2 and its bias at distance 0 is ½ / (8K/H), not 0. It is the sinusoid's "
                          "PE<sub>p</sub>·PE<sub>p+r</sub> without the pair k = 0, shifted by −d/2.");
        if (headDimValid(p))
            text += tr(" Now %1 terms, inv_freq from %2 to %3.")
                        .arg(SandwichBias::terms(p.sandwich.headDim))
                        .arg(NumberText::compact(SandwichBias::frequencies(p.sandwich.headDim).front(), 4),
                             NumberText::compact(SandwichBias::frequencies(p.sandwich.headDim).back(), 4));
        return text;
    };
    return s;
}

ParamSpec maskRow()
{
    // NeMo's `bidirectional` flag; its causal form fills the distances after the query with 0, not -inf.
    return HeadBias::maskRow(SandwichBias::biasFamily());
}

} // namespace

QList<ParamSpec> rows()
{
    return {headsRow(), headRow(), headDimRow(), maskRow()};
}

} // namespace posenc::SandwichParamRows
