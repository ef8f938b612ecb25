#include "SandwichParamRows.h"

#include "SandwichBias.h"

#include "core/NumberText.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace posenc::SandwichParamRows {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("SandwichParamRows", text);
}

bool headDimValid(const Params &p)
{
    return p.sandwich.headDim >= 1 && p.sandwich.headDim <= SandwichParams::kMaxHeadDim;
}

ParamSpec headsRow()
{
    return HeadBias::headsRow(
        SandwichBias::biasFamily(),
        u"Sandwich's attention heads H (num_attention_heads): head h = 1..H divides its bias by 8h/H"_s,
        u"sandwich_heads"_s, [](const Params &p) {
            QString text = tr("H, the attention heads (NeMo's num_attention_heads). Head h divides the shared sum by "
                              "h·8/H, as ALiBi's slopes shrink with the head: head 1 scales it by H/8, head H by 1/8 "
                              "(Chi et al. 2023).");
            if (HeadBias::headsValid(SandwichBias::biasFamily(), p))
                text += tr(" Now head 1 × %1, head %2 × 0.125.")
                            .arg(NumberText::compact(1.0 / SandwichBias::scale(p.sandwich.heads, 1), 5))
                            .arg(p.sandwich.heads);
            return text;
        });
}

ParamSpec headRow()
{
    return HeadBias::headRow(
        SandwichBias::biasFamily(),
        u"the head K whose bias sandwich-bias shows, numbered 1..H: NeMo's bias_scales are arange(1, H + 1)"_s,
        u"sandwich_head"_s, [](const Params &p) {
            QString text = tr("K, the head whose bias the tables and figures show, numbered 1 … H: NeMo's bias_scales "
                              "are torch.arange(1, H + 1), so head K (index K − 1 of its first dimension) divides by "
                              "K·8/H.");
            if (HeadBias::headsValid(SandwichBias::biasFamily(), p) && p.sandwich.head >= 1
                && p.sandwich.head <= p.sandwich.heads)
                text += tr(" Now 8K/H = %1.")
                            .arg(NumberText::compact(SandwichBias::scale(p.sandwich.heads, p.sandwich.head), 5));
            return text;
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
    return HeadBias::maskRow(
        SandwichBias::biasFamily(),
        {.choices = {u"causal"_s, u"bidirectional"_s},
         .choiceLabels = {u"causal: distance 0 after i (tril)"_s, u"bidirectional: |i − j|"_s},
         .help = u"NeMo's bidirectional flag: causal (False) sets the distance of every key after the query to 0\n"
                 "      (torch.tril, not -inf: the attention mask hides them elsewhere); bidirectional keeps |i - j|"_s,
         .formula = [](const Params &) {
             return tr("causal (bidirectional=False): NeMo applies torch.tril to the distances, so every key after "
                       "the query takes distance 0 and the bias of distance 0, (⌈d/2⌉ − d/2)/(8K/H): 0 for an even "
                       "d. It is not −inf: the decoder's attention mask hides those keys elsewhere.<br>bidirectional: "
                       "|i − j| on both sides, for an encoder. The two agree at and below the diagonal.");
         }});
}

} // namespace

QList<ParamSpec> rows()
{
    return {headsRow(), headRow(), headDimRow(), maskRow()};
}

} // namespace posenc::SandwichParamRows
