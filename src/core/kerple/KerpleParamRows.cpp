#include "KerpleParamRows.h"

#include "KerpleBias.h"
#include "core/TrContext.h"

#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc::KerpleParamRows {

namespace {

constexpr TrContext tr {"KerpleParamRows"};

QString number(double r)
{
    return NumberText::compact(r, 5);
}

bool headValid(const Params &p)
{
    return HeadBias::headsValid(KerpleBias::biasFamily(), p) && p.kerple.head >= 1 && p.kerple.head <= p.kerple.heads;
}

// Whether a list fits H: one value for every head, or one per head.
bool fitsHeads(const std::vector<double> &list, const Params &p)
{
    return list.size() == 1 || std::int64_t(list.size()) == p.kerple.heads;
}

ParamSpec headsRow()
{
    // Its words are KerpleWords.json's: they say nothing of the parameters.
    return HeadBias::headsRow(KerpleBias::biasFamily(), [](const Params &) { return QString(); });
}

ParamSpec headRow()
{
    return HeadBias::headRow(KerpleBias::biasFamily(), [](const Params &p) {
        if (!headValid(p) || !fitsHeads(p.kerple.r1, p) || !fitsHeads(p.kerple.r2, p))
            return QString();
        return tr(" Now r1 = %1, r2 = %2: its bias at distance 1 is %3.")
            .arg(number(KerpleBias::r1(p.kerple, p.kerple.head)), number(KerpleBias::r2(p.kerple, p.kerple.head)),
                 number(KerpleBias::bias(p.kerple, -1)));
    });
}

// r1 (bias_p) or r2 (bias_a): positive numbers, one for every head or one per head.
ParamSpec parameterRow(bool first)
{
    const QString key = first ? u"kerple-r1"_s : u"kerple-r2"_s;
    ParamSpec s = ParamRows::numberList(
        key, ParamGroup::Family,
        [first](Params &p) -> std::vector<double> & { return first ? p.kerple.r1 : p.kerple.r2; },
        KerpleParams::kMaxHeads);
    s.help = first
        ? u"r1 of each head (ParallelKerpleLog's bias_p), the bias's scale: one value for every head, or H\n"
          "      values, head h's at place h; below eps = 0.01 taken as 0.01, as the reference clamps it"_s
        : u"r2 of each head (ParallelKerpleLog's bias_a), inside the logarithm: one value for every head,\n"
          "      or H values, head h's at place h; below eps = 0.01 taken as 0.01, as the reference clamps it"_s;
    s.label = first ? u"kerple_r1"_s : u"kerple_r2"_s;
    s.valueName = u"R[,R...]"_s;
    const auto allowed = [](const Params &p) {
        const QString range = u"in (0, %1]"_s.arg(NumberText::compact(KerpleParams::kMaxR, 3));
        if (HeadBias::headsValid(KerpleBias::biasFamily(), p) && p.kerple.heads > 1)
            return u"one number or %1 numbers (kerple-heads) %2"_s.arg(p.kerple.heads).arg(range);
        return u"one number "_s + range;
    };
    s.allowed = allowed;
    s.check = [key, first, allowed](const Params &p) -> std::optional<ParamError> {
        const std::vector<double> &list = first ? p.kerple.r1 : p.kerple.r2;
        for (const double r : list) {
            if (!(r > 0.0 && r <= KerpleParams::kMaxR))
                return ParamError {key, allowed(p), QString(), NumberText::compact(r, 6)};
        }
        if (list.empty())
            return ParamError {key, allowed(p), u"is empty"_s, std::nullopt};
        if (HeadBias::headsValid(KerpleBias::biasFamily(), p) && !fitsHeads(list, p))
            return ParamError {key, allowed(p), u"has %1 values"_s.arg(list.size()), std::nullopt};
        return std::nullopt;
    };
    s.idle = ParamRows::familyIdle(Encoding::Kerple);
    s.formula = [first](const Params &p) {
        QString text = first ? tr("r1, the bias's scale (bias_p, initialised uniform in [0, 2)): head h adds "
                                  "−r1<sub>h</sub>·log(1 + r2<sub>h</sub>·(i − j)).")
                             : tr("r2, the rate inside the logarithm (bias_a, initialised uniform in [0, 1)): near 0 "
                                  "the bias is almost linear in the distance, −r1·r2·(i − j), like ALiBi's; large, it "
                                  "is logarithmic from the first keys on.");
        text += tr(" One value serves every head; H values give head h the h-th. The reference clamps it to at least "
                   "eps = 0.01 before each use, so a smaller value acts as 0.01.");
        if (headValid(p) && fitsHeads(p.kerple.r1, p) && fitsHeads(p.kerple.r2, p)) {
            text += tr(" Now head %1's is %2.")
                        .arg(p.kerple.head)
                        .arg(number(first ? KerpleBias::r1(p.kerple, p.kerple.head)
                                          : KerpleBias::r2(p.kerple, p.kerple.head)));
            if (const std::int64_t clamped = KerpleBias::clampedHeads(p.kerple))
                text += tr(" %1 of the %2 heads take eps for r1 or r2.").arg(clamped).arg(p.kerple.heads);
        }
        return text;
    };
    return s;
}

ParamSpec dtypeRow()
{
    ParamSpec s = ParamRows::choice(u"kerple-dtype"_s, ParamGroup::Family, &Params::kerple, &KerpleParams::dtype,
                                    {u"float32"_s, u"bfloat16"_s, u"float16"_s});
    s.help = u"the dtype of the attention scores, which the reference casts its distances to (diff.to(x.dtype))\n"
             "      and computes -r1 log(1 + r2 diff) in, an operation at a time (the paper trained in bfloat16)"_s;
    s.label = u"kerple_dtype"_s;
    s.idle = ParamRows::familyIdle(Encoding::Kerple);
    s.formula = [](const Params &) {
        return tr("The dtype of the scores x: the reference casts its distances to it (diff.to(x.dtype)), holds "
                  "bias_p and bias_a in it, and rounds each operation to it: r2·diff, 1 + r2·diff, the logarithm, "
                  "and the product with −r1. bfloat16 holds the distances exactly up to 256 and float16 up to "
                  "2048 (past 65504 float16's distance is inf, and so is the bias); the configs of the paper train "
                  "in bfloat16.");
    };
    return s;
}

} // namespace

QList<ParamSpec> rows()
{
    return {headsRow(), headRow(), parameterRow(true), parameterRow(false), dtypeRow()};
}

} // namespace posenc::KerpleParamRows
