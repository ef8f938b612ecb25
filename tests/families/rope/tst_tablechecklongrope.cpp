// LongRoPE against a declared reference as transformers switches it (modeling_rope_utils.py,
// longrope_frequency_update: max(position_ids) + 1 > original_max_position_embeddings takes
// long_factor, else short_factor, for every row of the forward): a table of L rows from 0 is one
// sequence of L positions. The other list throughout is named longrope-factor-set, a table whose
// rows switch lists mid-way longrope-factors-switched (at row N). Tables from float64 formulas here.
// vLLM's Phi3LongRoPEScaledRotaryEmbedding before vllm#27431 (issue vllm#27414) indexed
// cat(short_cache, long_cache) at p + (p > original) * original: rows 0..original-1 short, row
// `original` the long cache's row 0 (position 0), and the long list's rows after it; both named.
#include "core/CheckTables.h"
#include "support/Sanitizer.h"
#include "support/TestMain.h"

#include "check/TableMatch.h"
#include "check/rope/RopeLongRopeForms.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace tst_tablechecklongrope {
using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

namespace {

constexpr std::int64_t kHeadDim = 32;
constexpr std::int64_t kOriginal = 256;
constexpr double kTheta = 10000.0;
constexpr double kFactor = 16.0; // max_position_embeddings 4096 over 256

std::vector<double> shortFactors()
{
    std::vector<double> f;
    for (std::int64_t i = 0; i < kHeadDim / 2; ++i)
        f.push_back(1.0 + 0.05 * double(i));
    return f;
}

std::vector<double> longFactors()
{
    std::vector<double> f;
    for (std::int64_t i = 0; i < kHeadDim / 2; ++i)
        f.push_back(1.0 + 1.5 * double(i));
    return f;
}

Params declared()
{
    Params p;
    p.encoding = Encoding::Rope;
    p.maxLen = 4096; // the config's max_position_embeddings: never what decides the list
    p.rope.type = RopeType::LongRope;
    p.rope.headDim = kHeadDim;
    p.rope.theta = kTheta;
    p.rope.factor = kFactor;
    p.rope.originalMaxLen = kOriginal;
    p.rope.shortFactor = shortFactors();
    p.rope.longFactor = longFactors();
    return p;
}

// HF's cos table, cat((freqs, freqs)) times the attention factor sqrt(1 + ln(factor) / ln(original)):
// inv_i = 1 / (ext_i theta^(2i/d)), ext the long list from row `switchAt` on, the short before it.
RowMatrixXf longRope(std::int64_t rows, std::int64_t switchAt, std::int64_t strayRow = -1)
{
    const std::int64_t h = kHeadDim / 2;
    const double attention = std::sqrt(1.0 + std::log(kFactor) / std::log(double(kOriginal)));
    const std::vector<double> shortList = shortFactors(), longList = longFactors();
    return table(rows, kHeadDim, [&](std::int64_t p, std::int64_t c) {
        const std::int64_t i = c % h;
        const double ext = p >= switchAt ? longList[std::size_t(i)] : shortList[std::size_t(i)];
        const double inv = 1.0 / (ext * std::pow(kTheta, 2.0 * double(i) / double(kHeadDim)));
        // The stray row holds position 0's row (either list's: cos 0 = 1).
        return attention * std::cos(p == strayRow ? 0.0 : double(p) * inv);
    });
}

// vLLM's long_short_cos_sin_cache (vllm/model_executor/layers/rotary_embedding/
// phi3_long_rope_scaled_rope.py, Phi3LongRoPEScaledRotaryEmbedding.__init__: torch.cat([short_cache,
// long_cache], dim=0), both caches times one mscale sqrt(1 + ln(factor) / ln(original))): rows
// 0..original-1 the short list at their own positions, then `longRows` rows of the long list from
// position 0. HF's half layout, cos or sin, of `p`'s factors (this test's, or a published form's).
RowMatrixXf longShortCache(const Params &p, std::int64_t longRows, bool cosine)
{
    const std::int64_t d = p.rope.headDim, h = d / 2, original = *p.rope.originalMaxLen;
    const double attention = std::sqrt(1.0 + std::log(p.rope.factor.value_or(1.0)) / std::log(double(original)));
    return table(original + longRows, d, [&](std::int64_t r, std::int64_t c) {
        const bool longRow = r >= original;
        const std::int64_t i = c % h;
        const double ext = (longRow ? p.rope.longFactor : p.rope.shortFactor)[std::size_t(i)];
        const double angle
            = double(longRow ? r - original : r) / (ext * std::pow(p.rope.theta, 2.0 * double(i) / double(d)));
        return attention * (cosine ? std::cos(angle) : std::sin(angle));
    });
}

Checked streamed(const RowMatrixXf &t, const Params &p, bool cosine, bool declare)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    if (!declare)
        return concluded(rows, TableCheck::identify(rows, {}));
    return concluded(rows, TableCheck::expect(rows, Encoding::Rope, p, cosine ? u"rope-cos"_s : u"rope-sin"_s));
}

TableMatch expected(const RowMatrixXf &t)
{
    const MatrixRows rows(std::make_shared<const RowMatrixXf>(t), StoredType::Float32, u"test"_s);
    const auto got = TableCheck::expect(rows, Encoding::Rope, declared(), u"rope-cos"_s);
    if (!std::holds_alternative<TableMatch>(got))
        return {};
    return std::get<TableMatch>(got);
}

} // namespace

class TestTableCheckLongRope : public QObject
{
    Q_OBJECT

private slots:
    void listsAsTransformersSwitchesThem_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QString>("mistake"); // empty: no mistake
        QTest::addColumn<QString>("words");
        constexpr std::int64_t never = 1 << 30;
        QTest::newRow("192 rows, short: correct") << longRope(192, never) << QString() << QString();
        QTest::newRow("256 rows (= original), short: correct") << longRope(256, never) << QString() << QString();
        // mlx-lm's SuScaledRoPE before its fix: long_factor for every sequence.
        QTest::newRow("192 rows, long") << longRope(192, 0) << u"longrope-factor-set"_s
                                        << u"long_factor where transformers takes short_factor"_s;
        QTest::newRow("256 rows (= original), long")
            << longRope(256, 0) << u"longrope-factor-set"_s << u"long_factor where transformers takes short_factor"_s;
        QTest::newRow("600 rows, long: correct") << longRope(600, 0) << QString() << QString();
        QTest::newRow("600 rows, short") << longRope(600, never) << u"longrope-factor-set"_s
                                         << u"short_factor where transformers takes long_factor"_s;
        // A cache grown past the original length with its first rows kept.
        QTest::newRow("600 rows, switched at 256")
            << longRope(600, 256) << u"longrope-factors-switched"_s << u"longrope-factors-switched-at-row 256"_s;
        QTest::newRow("600 rows, switched at 400")
            << longRope(600, 400) << u"longrope-factors-switched"_s << u"longrope-factors-switched-at-row 400"_s;
    }
    void listsAsTransformersSwitchesThem()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(QString, mistake);
        QFETCH(QString, words);
        const TableMatch m = expected(values);
        QCOMPARE(m.table, u"rope-cos"_s);
        if (mistake.isEmpty()) {
            QVERIFY2(m.mistakes.isEmpty(), qPrintable(m.mistakes.join(u","_s) + u" | "_s + m.diagnosis));
            QVERIFY2(m.verdict != CheckVerdict::Mistake, qPrintable(m.diagnosis));
        } else {
            QCOMPARE(m.verdict, CheckVerdict::Mistake);
            QCOMPARE(m.mistakes, QStringList {mistake});
            QVERIFY2(m.diagnosis.contains(words), qPrintable(m.diagnosis));
        }
    }

    // vLLM's pattern: short rows, one stray row at position 0, long rows; both findings named, the
    // list words with the rows each list turns. And the short list throughout with a stray row.
    void strayRowIsNamed_data()
    {
        QTest::addColumn<RowMatrixXf>("values");
        QTest::addColumn<QStringList>("mistakes");
        QTest::addColumn<QStringList>("words");
        const QStringList both {u"longrope-factors-switched"_s, u"positions-out-of-order"_s};
        QTest::newRow("600 rows, row 256 at position 0, long from 257")
            << longRope(600, 256, 256) << both
            << QStringList {u"longrope-factors-switched-at-row 257"_s, u"rows 0..255 turn with short_factor"_s,
                            u"rows 257..599 turn with long_factor"_s, u"row 256 holds position 0"_s};
        QTest::newRow("1200 rows, row 256 at position 0, long from 257")
            << longRope(1200, 256, 256) << both
            << QStringList {u"longrope-factors-switched-at-row 257"_s, u"rows 257..1199 turn with long_factor"_s,
                            u"row 256 holds position 0"_s};
        QTest::newRow("600 rows, short, row 300 at position 0")
            << longRope(600, 1 << 30, 300) << QStringList {u"longrope-factor-set"_s, u"positions-out-of-order"_s}
            << QStringList {u"short_factor where transformers takes long_factor"_s, u"row 300 holds position 0"_s};
    }
    void strayRowIsNamed()
    {
        QFETCH(RowMatrixXf, values);
        QFETCH(QStringList, mistakes);
        QFETCH(QStringList, words);
        const TableMatch m = expected(values);
        QCOMPARE(m.verdict, CheckVerdict::Mistake);
        QCOMPARE(m.mistakes, mistakes);
        for (const QString &w : words)
            QVERIFY2(m.diagnosis.contains(w), qPrintable(w + u" | "_s + m.diagnosis));
    }

    // vLLM's cache as vLLM registers it is a published form, never a mistake: declared, correct
    // against the declaration, every row streamed with its own list; undeclared, correct as Phi-3's
    // cache with Phi-3's factors, and with this test's factors (no model publishes them) not correct.
    // vllm#27414's gathered rows (strayRowIsNamed) stay named.
    void vllmCacheIsAPublishedForm_data()
    {
        QTest::addColumn<bool>("published");
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<qint64>("longRows");
        for (const bool cosine : {true, false}) {
            const char *f = cosine ? "cos" : "sin";
            QTest::addRow("test factors, %s, 256 + 64 rows", f) << false << cosine << qint64(64);
            QTest::addRow("test factors, %s, 256 + 1024 rows", f) << false << cosine << qint64(1024);
            QTest::addRow("Phi-3 mini 128k, %s, 4096 + 200 rows", f) << true << cosine << qint64(200);
        }
    }
    void vllmCacheIsAPublishedForm()
    {
        QFETCH(bool, published);
        QFETCH(bool, cosine);
        QFETCH(qint64, longRows);
        // Under a sanitizer three of the six: cos and sin, the test's factors at each length, Phi-3's.
        POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(cosine != (longRows == 1024));
        Params p = declared();
        if (published) {
            const auto forms = RopeLongRopeForms::forms();
            const auto phi = std::find_if(forms.begin(), forms.end(), [](const RopeFit::Published &f) {
                return f.name.contains(u"Phi-3"_s) && f.name.contains(u"mini"_s) && f.name.contains(u"128k"_s);
            });
            QVERIFY(phi != forms.end());
            p = phi->params;
        }
        const RowMatrixXf values = longShortCache(p, longRows, cosine);
        const Checked d = streamed(values, p, cosine, true);
        QVERIFY2(d.error.isEmpty(), qPrintable(d.error));
        QVERIFY2(d.match.verdict == CheckVerdict::Correct && d.match.mistakes.isEmpty(), qPrintable(d.match.diagnosis));
        QVERIFY2(d.match.diagnosis.contains(u"long_short_cos_sin_cache"_s), qPrintable(d.match.diagnosis));
        QCOMPARE(d.verification.deviatingCells, 0);
        const Checked u = streamed(values, p, cosine, false);
        QVERIFY2(u.match.mistakes.isEmpty() && u.match.verdict != CheckVerdict::Mistake, qPrintable(u.match.diagnosis));
        if (published) {
            QCOMPARE(u.match.verdict, CheckVerdict::Correct);
            QVERIFY2(u.match.diagnosis.contains(u"long_short_cos_sin_cache"_s), qPrintable(u.match.diagnosis));
            QVERIFY2(u.match.correctAgainst.contains(u"Phi-3"_s), qPrintable(u.match.correctAgainst));
        } else {
            // Factors no model publishes are not read from the leading rows: never correct.
            QVERIFY(u.match.verdict != CheckVerdict::Correct);
        }
        // The cache with a row the form does not hold is no longer correct.
        RowMatrixXf damaged = values;
        damaged.row(damaged.rows() - 3).setConstant(0.5f);
        QCOMPARE(streamed(damaged, p, cosine, true).match.verdict, CheckVerdict::Mistake);
    }

    // Phi-3's cache with one damaged cell or row is read as the cache, that row shown as deviating:
    // no LongRoPE list or positions' name (they were: longrope-factor-set declared, learned or
    // longrope-factors-switched with positions-out-of-order undeclared, the sin half's zeroed row
    // read as position 0).
    void damagedVllmCacheIsReadAsTheCache_data()
    {
        QTest::addColumn<bool>("cosine");
        QTest::addColumn<qint64>("row");
        QTest::addColumn<int>("damage"); // 0 one cell + 0.3, 1 the row halved, 2 the row zeroed
        for (const bool cosine : {true, false}) {
            const char *f = cosine ? "cos" : "sin";
            QTest::addRow("%s, long row 4196, one cell", f) << cosine << qint64(4196) << 0;
            QTest::addRow("%s, long row 4196 halved", f) << cosine << qint64(4196) << 1;
            QTest::addRow("%s, short row 1000 zeroed", f) << cosine << qint64(1000) << 2;
        }
    }
    void damagedVllmCacheIsReadAsTheCache()
    {
        QFETCH(bool, cosine);
        QFETCH(qint64, row);
        QFETCH(int, damage);
        // Under a sanitizer three of the six: each damage once, in the cos half and the sin half.
        POSENC_UNDER_SANITIZER_ONLY_ROWS_WHERE(cosine == (damage != 1));
        const auto forms = RopeLongRopeForms::forms();
        const auto phi = std::find_if(forms.begin(), forms.end(), [](const RopeFit::Published &f) {
            return f.name.contains(u"Phi-3"_s) && f.name.contains(u"mini"_s) && f.name.contains(u"128k"_s);
        });
        QVERIFY(phi != forms.end());
        RowMatrixXf values = longShortCache(phi->params, 300, cosine);
        if (damage == 0)
            values(row, 5) += 0.3f;
        else
            values.row(row) *= damage == 1 ? 0.5f : 0.0f;
        const QStringList wrongNames {u"longrope-factor-set"_s, u"longrope-factors-switched"_s,
                                      u"positions-out-of-order"_s};
        for (const bool declare : {true, false}) {
            const Checked c = streamed(values, phi->params, cosine, declare);
            QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
            const QString said = u"%1 | %2"_s.arg(c.match.mistakes.join(u","_s), c.match.diagnosis);
            QCOMPARE(c.match.verdict, CheckVerdict::Mistake);
            for (const QString &name : wrongNames)
                QVERIFY2(!c.match.mistakes.contains(name), qPrintable(said));
            QVERIFY2(c.match.diagnosis.contains(u"long_short_cos_sin_cache"_s), qPrintable(said));
            QCOMPARE(c.verification.deviatingRows, qint64(1));
            QCOMPARE(c.verification.deviationRow, row);
        }
    }
};

POSENC_TEST_GUILESS_MAIN(TestTableCheckLongRope)
} // namespace tst_tablechecklongrope
#include "tst_tablechecklongrope.moc"
