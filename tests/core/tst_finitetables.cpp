// Every table posenc computes is finite, or its infinities are the documented ones (the causal
// mask's -inf of ALiBi's bias), over the whole parameter space of every family: parameters the
// checks accept, drawn at and past each row's range (ParamFuzz.h), blocks at the first and the
// last positions and columns of every quantity they have. And the numbers `posenc describe`
// prints for them are finite or null, written as strict JSON.
//
// Before: yarn with beta_fast 1e-308 made rope-cos all NaN, attention_factor 1e300 made it
// infinite, mscale 1e308 with mscale_all_dim 1e-308 NaN, and describe printed -inf for beta_slow
// 1e308; each was accepted.
//
// By hand, for ten minutes: POSENC_FUZZ_SECONDS=600 build/release/tests/core/tst_finitetables
#include "ParamFuzz.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "core/Description.h"
#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/Quantity.h"
#include "core/positions/DocumentDistance.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QTest>

#include <cmath>

namespace tst_finitetables {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// The blocks of a table a draw computes: the first and the last rows and columns, each a few
// cells wide, so that a draw at L 2^24 and d 2^20 costs what one at L 16 does.
QList<Block> cornerBlocks(Shape shape)
{
    constexpr std::int64_t kEdge = 8;
    QList<Block> blocks;
    const std::int64_t rows = std::min(kEdge, shape.rows);
    const std::int64_t cols = std::min(kEdge, shape.cols);
    if (rows <= 0 || cols <= 0)
        return blocks;
    for (const std::int64_t row0 : {std::int64_t(0), shape.rows - rows})
        for (const std::int64_t col0 : {std::int64_t(0), shape.cols - cols})
            blocks.append(Block {row0, rows, col0, cols});
    return blocks;
}

// Whether cell (r, c) of `out`, a block of `quantity`, is one of the documented infinities:
// ALiBi's causal bias above the diagonal (-inf, as the reference's mask is), and the wavelength
// of a RoPE frequency of 0 (proportional's tail, +inf: README's rope-frequencies); or one of the
// documented NaNs: a query-key pair the mask hides (document-distance), and the term of an id past
// max_len, which a learned table or a patch grid has no row for (position-effect); and KERPLE's
// float16 bias past float16's range (-inf).
bool documentedInfinity(const Params &p, Quantity quantity, const Block &block, const RowMatrixXf &out, std::int64_t r,
                        std::int64_t c)
{
    const float v = out(r, c);
    const std::int64_t row = block.row0 + r;
    const std::int64_t col = block.col0 + c;
    if (quantity == Quantity::AlibiBias)
        return v == -std::numeric_limits<float>::infinity() && p.alibi.mask == AlibiMask::Causal && col > row;
    if (quantity == Quantity::RopeFrequencies && (col == 2 || col == 3) && block.col0 == 0 && block.cols == 5)
        return v == std::numeric_limits<float>::infinity() && out(r, col - 2) == 0.0f;
    if (quantity == Quantity::KerpleBias && p.kerple.dtype == KerpleDtype::Float16) {
        // float16's largest finite value is 65504: a distance, r2 times it or r1 times the log
        // past it is inf, and so is the bias (KERPLE's kerple-dtype row; chijames/KERPLE casts
        // diff to the scores' dtype). The bound leaves float16's rounding of r1 and r2 its slack.
        const auto head = [&](const std::vector<double> &list) {
            const double r = list.size() == 1 ? list.front() : list[std::size_t(p.kerple.head - 1)];
            return std::max(r, KerpleParams::kEps);
        };
        const double d = double(std::max<std::int64_t>(row - col, 0));
        const double product = head(p.kerple.r2) * d;
        const double largest = 65504.0 * (1.0 - 0x1p-9);
        return v == -std::numeric_limits<float>::infinity()
            && (d >= largest || product >= largest || head(p.kerple.r1) * std::log1p(product) >= largest);
    }
    if (quantity == Quantity::DocumentDistance && std::isnan(v)) {
        const BatchLayout layout(p);
        return !DocumentDistance::attended(layout, p.batch.ids, row / p.maxLen, row % p.maxLen, col);
    }
    if (quantity == Quantity::PositionEffect && std::isnan(v)) {
        // Past max_len a learned table or a grid has no row: the term of such an id.
        const BatchLayout layout(p);
        const std::int64_t b = row / p.maxLen, c = row % p.maxLen;
        return std::max(layout.id(p.batch.ids, b, c), layout.id(IdsChoice::Reference, b, c)) >= p.maxLen
            || std::max(layout.id(p.batch.ids, b, layout.documentStart(b, c)), std::int64_t(0)) >= p.maxLen;
    }
    return false;
}

QString where(const QString &family, std::uint64_t seed, const Params &p)
{
    QStringList keys;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.kind != ParamKind::Matrix && ParamText::get(p, row.key) != ParamText::get(Params(), row.key))
            keys.append(u"--%1 %2"_s.arg(row.key, ParamText::get(p, row.key)));
    }
    return u"%1, POSENC_FUZZ_SEED=%2: %3"_s.arg(family).arg(seed).arg(keys.join(u' '));
}

} // namespace

class TestFiniteTables : public QObject
{
    Q_OBJECT

private slots:
    void everyTableIsFinite_data();
    void everyTableIsFinite();
    void theAuditsValuesAreRefusedWithTheirRange_data();
    void theAuditsValuesAreRefusedWithTheirRange();
};

void TestFiniteTables::everyTableIsFinite_data()
{
    QTest::addColumn<QString>("family");
    for (const QString &family : fuzzing::families())
        QTest::newRow(qPrintable(family)) << family;
}

void TestFiniteTables::everyTableIsFinite()
{
    QFETCH(QString, family);
    // A sanitizer looks for the memory and arithmetic errors of the code paths the draws reach, which
    // a third of them reach as well; the release suite makes every draw.
    const int draws = testing::kUnderSanitizer ? 100 : 300;
    const fuzzing::Budget budget = fuzzing::Budget::fromEnvironment(draws, fuzzing::families().size());
    QElapsedTimer clock;
    clock.start();
    int valid = 0;
    for (int n = 0; budget.more(n, clock); ++n) {
        const std::uint64_t seed = budget.seed(family, n);
        fuzzing::ParamDraw draw(seed);
        const Params p = draw.draw(family);
        if (!p.isValid())
            continue;
        ++valid;
        const Engine engine(p);
        for (const Quantity q : Quantities::available(p)) {
            for (const Block &block : cornerBlocks(engine.shape(q))) {
                if (engine.check(q, block))
                    continue; // refused up front (the memory budget): nothing computed
                RowMatrixXf out(block.rows, block.cols);
                QVERIFY2(engine.compute(q, block, out, ComputeOptions {1, nullptr}),
                         qPrintable(where(family, seed, p)));
                for (std::int64_t r = 0; r < block.rows; ++r) {
                    for (std::int64_t c = 0; c < block.cols; ++c) {
                        const float v = out(r, c);
                        if (!std::isfinite(v) && !documentedInfinity(p, q, block, out, r, c))
                            QFAIL(qPrintable(u"%1[%2, %3] is %4 (%5)"_s.arg(Quantities::name(q))
                                                 .arg(block.row0 + r)
                                                 .arg(block.col0 + c)
                                                 .arg(double(v))
                                                 .arg(where(family, seed, p))));
                    }
                }
            }
        }
        // What `posenc describe --json` prints of them: finite numbers or null, strict JSON.
        QStringList fields;
        for (const auto &[key, value] : Description::entries(p).value_or(Description::Entries())) {
            if (const double *number = std::get_if<double>(&value))
                QVERIFY2(std::isfinite(*number),
                         qPrintable(u"describe's %1 is %2 (%3)"_s.arg(key).arg(*number).arg(where(family, seed, p))));
            fields.append(u"\"%1\": %2"_s.arg(key, Description::text(value, true)));
        }
        QJsonParseError error;
        QJsonDocument::fromJson(u"{%1}"_s.arg(fields.join(u", "_s)).toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError,
                 qPrintable(u"describe --json: %1 (%2)"_s.arg(error.errorString(), where(family, seed, p))));
    }
    // The draws must reach valid parameters often enough to mean something; by hand, a family's
    // share of the time may go to a few tables at the memory budget's size.
    if (!budget.replay)
        QVERIFY2(valid >= (budget.seconds > 0.0 ? 5 : 20),
                 qPrintable(u"%1: only %2 valid draws"_s.arg(family).arg(valid)));
}

void TestFiniteTables::theAuditsValuesAreRefusedWithTheirRange_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("range");
    const QStringList yarn {u"rope-type"_s,        u"yarn"_s, u"rope-factor"_s, u"4"_s,
                            u"original-max-len"_s, u"4096"_s, u"max-len"_s,     u"64"_s};
    QTest::newRow("beta_fast 1e-308") << yarn + QStringList {u"beta-fast"_s, u"1e-308"_s} << u"beta-fast"_s
                                      << u"a number in [1e-6, 1000000]"_s;
    QTest::newRow("beta_slow 1e308") << yarn + QStringList {u"beta-slow"_s, u"1e308"_s} << u"beta-slow"_s
                                     << u"a number in [1e-6, 1000000]"_s;
    QTest::newRow("attention_factor 1e300") << yarn + QStringList {u"attention-factor"_s, u"1e300"_s}
                                            << u"attention-factor"_s << u"a number in (0, 1000000]"_s;
    QTest::newRow("mscale 1e308") << yarn + QStringList {u"mscale"_s, u"1e308"_s, u"mscale-all-dim"_s, u"1e-308"_s}
                                  << u"mscale"_s << u"a number in [0, 1000000]"_s;
    QTest::newRow("longrope's original 1")
        << QStringList {u"rope-type"_s,   u"longrope"_s, u"head-dim"_s,         u"4"_s, u"rope-factor"_s,  u"2"_s,
                        u"max-len"_s,     u"8"_s,        u"original-max-len"_s, u"1"_s, u"short-factor"_s, u"1,1"_s,
                        u"long-factor"_s, u"1,1"_s}
        << u"original-max-len"_s << u"an integer in [2, 16777216] (longrope divides by ln L0)"_s;
    QTest::newRow("init 1e308") << QStringList {u"init"_s, u"1e308"_s} << u"init"_s
                                << u"normal, scaled-normal, keras-uniform or a sigma in [0, 1000000]"_s;
    QTest::newRow("scale 1e300") << QStringList {u"scale"_s, u"1e300"_s} << u"scale"_s
                                 << u"1, sqrt or a number in [0, 1000000]"_s;
}

// Before: each was accepted, and its table was NaN or infinite (init and scale under every family).
void TestFiniteTables::theAuditsValuesAreRefusedWithTheirRange()
{
    QFETCH(QStringList, flags);
    QFETCH(QString, key);
    QFETCH(QString, range);
    Params p;
    QVERIFY(!ParamText::set(p, u"encoding"_s, u"rope"_s));
    for (qsizetype i = 0; i + 1 < flags.size(); i += 2)
        QVERIFY(!ParamText::set(p, flags[i], flags[i + 1]));
    const QList<ParamError> errors = p.validate();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.front().key, key);
    QCOMPARE(errors.front().allowed, range);
}

POSENC_TEST_GUILESS_MAIN(TestFiniteTables)
} // namespace tst_finitetables
#include "tst_finitetables.moc"
