// NoPE's test record (tests/support/TestFamily.h): no rows and no tables of its own; its figure of
// order without positions is drawn under its encoding; its panel of the families figure is the
// term a layer without positions gives the keys the query sees, none.
#include "support/TestFamily.h"

using namespace Qt::StringLiterals;

POSENC_TEST_FAMILY(None)
{
    TestFamily f;
    f.figureParams = [](posenc::Params p) {
        p.encoding = posenc::Encoding::None;
        return p;
    };
    // Its panel: one line, 0.0 exactly at every key the query sees: under a causal model's mask the
    // keys 0 .. q (offsets -q .. 0), the keys after it shaded as masked; in a model that attends
    // both ways (params.batch.attention, the model's mask the panel is drawn at) every key 0 ..
    // max_len - 1, none masked.
    f.panel = [](const posenc::Params &p, std::int64_t q, const TestPanel &drawn) -> std::optional<QString> {
        const bool bothWays = p.batch.attention == posenc::Attention::BothWays;
        if (drawn.lines.size() != 1)
            return u"%1 lines"_s.arg(drawn.lines.size());
        if (drawn.maskedAfterQuery == bothWays)
            return bothWays ? u"the keys after the query shaded as masked both ways"_s
                            : u"the keys after the query not shaded as masked"_s;
        const posenc::FamilyCurve &line = drawn.lines.front();
        const double last = bothWays ? double(p.maxLen - 1 - q) : 0.0;
        if (line.offset.isEmpty() || line.offset.front() != double(-q) || line.offset.back() != last)
            return u"the line does not run over the keys the query sees"_s;
        for (qsizetype n = 0; n < line.offset.size(); ++n) {
            const double expected = 0.0; // q·k alone: no position term at any offset
            if (line.lo[n] != expected || line.hi[n] != expected)
                return u"k %1: %2 .. %3 vs %4"_s.arg(line.offset[n]).arg(line.lo[n]).arg(line.hi[n]).arg(expected);
        }
        return std::nullopt;
    };
    return f;
}
