#include "AlibiParamRows.h"

#include "AlibiSlopes.h"
#include "core/TrContext.h"

#include "core/NumberText.h"

using namespace Qt::StringLiterals;

namespace posenc::AlibiParamRows {

namespace {

constexpr TrContext tr {"AlibiParamRows"};

ParamSpec headsRow()
{
    // Its words are AlibiWords.json's; the slopes at the parameters follow them.
    return HeadBias::headsRow(AlibiSlopes::biasFamily(), [](const Params &p) {
        if (!HeadBias::headsValid(AlibiSlopes::biasFamily(), p))
            return QString();
        const std::int64_t geometric = AlibiSlopes::geometricHeads(p.alibi.heads);
        const QString slopes = tr(" Now m<sub>1</sub> = %1 … m<sub>%2</sub> = %3")
                                   .arg(NumberText::compact(AlibiSlopes::of(p.alibi.heads, 1), 5))
                                   .arg(p.alibi.heads)
                                   .arg(NumberText::compact(AlibiSlopes::of(p.alibi.heads, p.alibi.heads), 5));
        if (geometric == p.alibi.heads)
            return slopes + tr(", one geometric series.");
        return slopes
            + tr("; heads %1 … %2 take the interleave of %3.").arg(geometric + 1).arg(p.alibi.heads).arg(2 * geometric);
    });
}

ParamSpec headRow()
{
    return HeadBias::headRow(AlibiSlopes::biasFamily(), [](const Params &p) {
        if (!HeadBias::headsValid(AlibiSlopes::biasFamily(), p) || p.alibi.head < 1 || p.alibi.head > p.alibi.heads)
            return QString();
        const double m = AlibiSlopes::of(p.alibi.heads, p.alibi.head);
        return tr(" Now m<sub>%1</sub> = %2: its bias reaches −1 at distance %3.")
            .arg(p.alibi.head)
            .arg(NumberText::compact(m, 5))
            .arg(NumberText::compact(1.0 / m, 5));
    });
}

ParamSpec maskRow()
{
    // Its tooltip says that the reference code's form m·j differs from −m(i − j) by m·i in each row.
    return HeadBias::maskRow(AlibiSlopes::biasFamily());
}

} // namespace

QList<ParamSpec> rows()
{
    return {headsRow(), headRow(), maskRow()};
}

} // namespace posenc::AlibiParamRows
