// The rope-precision figure: each format's gap between neighbouring values at p, against
// 2^(floor(log2 p) - mantissa bits) written here, and its first merging position against a
// rounding of integer positions to bf16, fp16 and float32 done here bit by bit (bf16 from 256,
// fp16 from 2,048, float32 from 2^24); fp16's overflow at 65,520.
#include "render/FigureExporter.h"
#include "render/figures/rope/RopePrecisionFigure.h"
#include "support/TestMain.h"

#include "core/ParamTable.h"
#include "core/ParamText.h"

#include "RopeSlides.h"
#include "support/FigureBuilds.h"
#include "support/RopeReference.h"
#include "support/TestFamily.h"

#include <QTest>

#include <bit>
#include <cmath>
#include <cstdint>

namespace tst_ropeprecisionfigure {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

Params positions(std::int64_t maxLen)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.dModel = 128;
    p.maxLen = maxLen;
    p.rope.headDim = 64;
    return p;
}

// x rounded to nearest, ties to even, with `bits` explicit mantissa bits (x an integer < 2^24,
// held exactly in float32 first).
double rounded(std::int64_t x, int bits)
{
    const auto f = static_cast<float>(x);
    std::uint32_t u = std::bit_cast<std::uint32_t>(f);
    const int drop = 23 - bits;
    if (drop > 0) {
        const std::uint32_t half = std::uint32_t(1) << (drop - 1);
        const std::uint32_t rest = u & ((std::uint32_t(1) << drop) - 1);
        const std::uint32_t lsb = (u >> drop) & 1u;
        u >>= drop;
        if (rest > half || (rest == half && lsb))
            ++u;
        u <<= drop;
    }
    return double(std::bit_cast<float>(u));
}

// The first integer p whose neighbour p + 1 rounds to the same value in that format.
std::int64_t firstMerge(int bits, std::int64_t limit)
{
    for (std::int64_t p = 1; p < limit; ++p)
        if (rounded(p, bits) == rounded(p + 1, bits))
            return p;
    return -1;
}

} // namespace

class TestRopePrecisionFigure : public QObject
{
    Q_OBJECT

private slots:
    void gapsAreTheFormats();
    void firstMergesAreWhereRoundingMerges();
    void fp16OverflowsPast65504();
    void figureIsRegisteredAndExports();
    void llamaAndGptOssFitASlide();
    void keysItDoesNotReadLeaveItsDataAlone();
};

void TestRopePrecisionFigure::gapsAreTheFormats()
{
    const RopePrecisionData d = RopePrecisionModel::compute(positions(131072));
    QCOMPARE(d.last, 131071);
    QCOMPARE(d.formats.size(), 3);
    const int bits[] = {23, 7, 10};
    for (qsizetype f = 0; f < 3; ++f) {
        const RopePrecisionFormat &format = d.formats[f];
        QCOMPARE(format.mantissaBits, bits[f]);
        QCOMPARE(format.position.front(), 1.0);
        for (qsizetype n = 0; n < format.position.size(); ++n) {
            const double x = format.position[n];
            QCOMPARE(format.gap[n], std::ldexp(1.0, int(std::floor(std::log2(x))) - bits[f]));
            // Powers of two, then the last position the format holds.
            if (n + 1 < format.position.size())
                QCOMPARE(x, std::ldexp(1.0, int(n)));
        }
    }
    QCOMPARE(d.formats[0].position.back(), 131071.0);
    QCOMPARE(d.formats[1].position.back(), 131071.0);
    // bf16 at the last position: 2^(16 - 7).
    QCOMPARE(d.bf16StepAtLast, 512.0);
    QVERIFY(!d.fp16StepAtLast);
}

void TestRopePrecisionFigure::firstMergesAreWhereRoundingMerges()
{
    const RopePrecisionData d = RopePrecisionModel::compute(positions(1 << 20));
    QCOMPARE(d.formats[1].firstMerge, firstMerge(7, 1 << 20));
    QCOMPARE(d.formats[1].firstMerge, 256);
    QCOMPARE(d.formats[2].firstMerge, firstMerge(10, 1 << 20));
    QCOMPARE(d.formats[2].firstMerge, 2048);
    // float32 holds every integer below 2^24; 2^24 + 1 rounds to 2^24.
    QCOMPARE(d.formats[0].firstMerge, std::int64_t(1) << 24);
    QCOMPARE(double(float(16777217.0)), 16777216.0);
    QCOMPARE(double(float(16777215.0)), 16777215.0);
}

void TestRopePrecisionFigure::fp16OverflowsPast65504()
{
    // Below the overflow fp16 runs to the last position; past it, its staircase stops there.
    const RopePrecisionData shortTable = RopePrecisionModel::compute(positions(60000));
    QVERIFY(!shortTable.formats[2].overflow);
    QCOMPARE(shortTable.formats[2].position.back(), 59999.0);
    QVERIFY(shortTable.fp16StepAtLast);
    QCOMPARE(*shortTable.fp16StepAtLast, 32.0);
    const RopePrecisionData longTable = RopePrecisionModel::compute(positions(131072));
    QCOMPARE(longTable.formats[2].overflow, std::optional<std::int64_t>(65520));
    QCOMPARE(longTable.formats[2].position.back(), 65519.0);
    // 65,504 is fp16's largest; 65,520 is halfway to 2^16, which rounds (ties to even) past it.
    QCOMPARE(65504.0 + std::ldexp(1.0, 15 - 10) / 2.0, 65520.0);
}

void TestRopePrecisionFigure::figureIsRegisteredAndExports()
{
    const FigureSize size = FigureSize::fromPixels(QSize(800, 500));
    const auto built = FigureBuilds::build(u"rope-precision"_s, roperef::llama31(), size);
    QVERIFY2(!built->error(), qPrintable(FigureBuilds::errorOf(*built)));
    QCOMPARE(FigureExporter::image(built->plot(), size).size(), QSize(800, 500));
    const QString texts = FigureBuilds::texts(*built->plot()).join(u' ').replace(u'\n', u' ');
    QVERIFY2(texts.contains(u"bf16 gap 512"_s) && texts.contains(u"fp16 overflows"_s), qPrintable(texts));
}

void TestRopePrecisionFigure::llamaAndGptOssFitASlide()
{
    RopeSlides::check(u"rope-precision"_s);
}

} // namespace tst_ropeprecisionfigure
namespace posenc {

bool operator==(const RopePrecisionFormat &a, const RopePrecisionFormat &b)
{
    return a.name == b.name && a.mantissaBits == b.mantissaBits && a.position == b.position && a.gap == b.gap
        && a.firstMerge == b.firstMerge && a.overflow == b.overflow;
}

} // namespace posenc
namespace tst_ropeprecisionfigure {

// The figure declares fewer keys than the rotation's tables read (RopePrecisionModel::reads), so
// that a window skips it when only those change: every other parameter, each family's change rows
// and the shared ones, in RoPE's settings, leaves its data exactly as it was. A key forgotten from
// the declaration would leave the view stale.
void TestRopePrecisionFigure::keysItDoesNotReadLeaveItsDataAlone()
{
    const QStringList reads = FigureBuilds::figure(u"rope-precision"_s).model().reads({});
    QVERIFY(reads.contains(u"max-len"_s));
    TestSetting changes = {{u"d-model"_s, u"256"_s}, {u"scale"_s, u"2.5"_s}, {u"dropout"_s, u"0.7"_s},
                           {u"seed"_s, u"7"_s},      {u"eval"_s, u"true"_s}, {u"max-len"_s, u"70000"_s}};
    QList<Params> settings = {roperef::llama31(), positions(3000)};
    for (const TestFamily &family : TestFamilies::all()) {
        changes += family.changes;
        if (family.encoding == Encoding::Rope) {
            for (const auto &[name, setting] : family.settings)
                settings.append(TestFamilies::applied(positions(5000), setting));
        }
    }
    int compared = 0, read = 0;
    for (const Params &setting : std::as_const(settings)) {
        const RopePrecisionData before = RopePrecisionModel::compute(setting);
        for (const auto &[key, text] : std::as_const(changes)) {
            Params changed = setting;
            if (ParamText::set(changed, key, text) || !changed.isValid() || changed.encoding != Encoding::Rope)
                continue;
            const QStringList keys = ParamTable::changedKeys(setting, changed);
            if (keys.isEmpty())
                continue;
            const RopePrecisionData after = RopePrecisionModel::compute(changed);
            const bool same = after.formats == before.formats && after.last == before.last
                && after.bf16StepAtLast == before.bf16StepAtLast && after.fp16StepAtLast == before.fp16StepAtLast;
            if (std::any_of(keys.begin(), keys.end(), [&](const QString &k) { return reads.contains(k); })) {
                read += same ? 0 : 1;
                continue;
            }
            QVERIFY2(same,
                     qPrintable(u"%1=%2 moved the figure's data, but it is not among its reads"_s.arg(key, text)));
            ++compared;
        }
    }
    // The rotation's own rows are among those tried, and max_len, which it reads, moves it.
    QVERIFY2(compared > 20, qPrintable(QString::number(compared)));
    QVERIFY(read > 0);
}

POSENC_TEST_MAIN(TestRopePrecisionFigure)
} // namespace tst_ropeprecisionfigure
#include "tst_ropeprecisionfigure.moc"
