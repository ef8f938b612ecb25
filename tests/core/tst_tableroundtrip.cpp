// posenc check identifies every table posenc table writes (issue "Nothing breaks", the round trip):
// each family's tables computed by the engine, as `posenc table` computes them, then checked as a
// file's rows are. The parameter rows' corners: d = 1, 2, odd d, L = 1, 2, 3, the largest factors,
// both layouts, both masks and directions, every rope_type, and each published form. A table is
// identified when the verdict is correct, the family and table are named, and the parameters
// named give the same table again. A table no formula can be told from (every cell 0) is unknown
// and says why. Short in CI; POSENC_ROUNDTRIP_LONG=1 adds the long sizes, by hand.
#include "../support/Sanitizer.h"
#include "CheckTables.h"
#include "EngineTable.h"

#include "check/FamilyCheck.h"
#include "check/TableMatch.h"
#include "core/Engine.h"
#include "core/FamilySpec.h"
#include "core/Quantity.h"

#include <QtTest>

#include <cmath>

using namespace posenc;
using namespace checktables;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(posenc::Params)

namespace {

bool longMode()
{
    return qEnvironmentVariableIsSet("POSENC_ROUNDTRIP_LONG");
}

struct Case
{
    QString name;
    Params params;
    QString quantity;
    QString unknownBecause; // empty: identified
};

// The quantity `posenc table` writes a table the check names by its family's word of it: the term's
// "pe" for a sinusoid's and a 2-D sin-cos grid's.
QString quantityOf(const QString &table)
{
    return table == u"sinusoidal"_s || table == u"sincos-2d"_s ? u"pe"_s : table;
}

RowMatrixXf written(const Params &params, const QString &quantity)
{
    const Engine engine(params);
    const Quantity q = *Quantities::fromName(quantity);
    const Shape shape = Quantities::shape(q, params);
    return testing::computeTable(engine, q, {0, shape.rows, 0, shape.cols});
}

QList<Case> sinusoidCases()
{
    QList<Case> cases;
    QList<std::int64_t> widths {1, 2, 3, 4, 5, 7, 64, 127, 512};
    QList<std::int64_t> lengths {1, 2, 3, 50, 2048};
    if (longMode()) {
        widths += {4096, 8191};
        lengths.append(65536);
    }
    for (const std::int64_t d : widths) {
        for (const std::int64_t L : lengths) {
            for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
                Params p;
                p.encoding = Encoding::Sinusoidal;
                p.dModel = d;
                p.maxLen = L;
                p.sinusoidal.layout = layout;
                const QString unknown = d == 1 && L == 1 ? u"every cell is 0"_s : QString();
                cases.append(
                    {u"pe d %1 L %2 %3"_s.arg(d).arg(L).arg(layout == Layout::Split ? u"split"_s : u"interleaved"_s), p,
                     u"pe"_s, unknown});
            }
        }
    }
    for (const double base : {500.0, 1e6, 123456.0}) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        p.dModel = 64;
        p.maxLen = 2048;
        p.sinusoidal.base = base;
        cases.append({u"pe base %1"_s.arg(base), p, u"pe"_s, {}});
    }
    for (const Layout layout : {Layout::Interleaved, Layout::Split}) {
        Params p;
        p.encoding = Encoding::Sinusoidal;
        p.dModel = 128;
        p.maxLen = 4096;
        p.sinusoidal.layout = layout;
        p.sinusoidal.angles = Angles::Float32;
        cases.append({u"pe float32 angles %1"_s.arg(int(layout)), p, u"pe"_s, {}});
    }
    return cases;
}

Params rope(RopeType type, std::int64_t headDim, double theta, std::int64_t L)
{
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.type = type;
    p.rope.headDim = headDim;
    p.rope.theta = theta;
    p.maxLen = L;
    return p;
}

// Every rope_type with the parameters of the presets and others, the largest factors among them.
QList<std::pair<QString, Params>> ropeSettings()
{
    QList<std::pair<QString, Params>> s;
    const std::int64_t L = longMode() ? 131072 : 4096;
    for (const std::int64_t head : {2, 4, 64, 128})
        for (const std::int64_t rows : {1, 2, 3, 64, 4096})
            s.append({u"default head %1 L %2"_s.arg(head).arg(rows), rope(RopeType::Default, head, 10000.0, rows)});
    s.append({u"default theta 5e5"_s, rope(RopeType::Default, 128, 500000.0, 8192)});
    for (const double f : {2.0, 8.0, 1e6}) {
        Params p = rope(RopeType::Linear, 64, 1e6, L);
        p.rope.factor = f;
        s.append({u"linear %1"_s.arg(f), p});
    }
    Params dynamic = rope(RopeType::Dynamic, 64, 10000.0, 8192);
    dynamic.rope.factor = 4.0;
    dynamic.rope.originalMaxLen = 2048;
    s.append({u"dynamic 4 from 2048"_s, dynamic});
    dynamic.maxLen = 1024;
    s.append({u"dynamic below its original length"_s, dynamic});
    Params yarn = rope(RopeType::Yarn, 128, 10000.0, 16384);
    yarn.rope.factor = 4.0;
    yarn.rope.originalMaxLen = 4096;
    s.append({u"yarn 4 from 4096"_s, yarn});
    Params gptOss = rope(RopeType::Yarn, 64, 150000.0, 8192);
    gptOss.rope.factor = 32.0;
    gptOss.rope.originalMaxLen = 4096;
    gptOss.rope.yarnTruncate = false;
    s.append({u"yarn 32 untruncated (gpt-oss)"_s, gptOss});
    Params explicitFactor = yarn;
    explicitFactor.rope.attentionFactor = 1.5;
    s.append({u"yarn, attention_factor 1.5"_s, explicitFactor});
    Params deepseek = rope(RopeType::Yarn, 64, 10000.0, 8192);
    deepseek.rope.layout = RopeLayout::Interleaved;
    deepseek.rope.factor = 40.0;
    deepseek.rope.originalMaxLen = 4096;
    deepseek.rope.mscale = 0.707;
    deepseek.rope.mscaleAllDim = 0.707;
    // mscale = mscale_all_dim makes the attention factor get_mscale(f, m) / get_mscale(f, m) = 1
    // (transformers modeling_rope_utils.py, _compute_yarn_parameters): DeepSeek-V3's table, which
    // DeepseekV3RotaryEmbedding returns as cat(freqs, freqs) whatever rope_interleave does to q and k
    // (modeling_deepseek_v3.py): correct in either layout, never attention-factor-missing undeclared.
    s.append({u"yarn with mscale = mscale_all_dim (DeepSeek-V2)"_s, deepseek});
    Params largestYarn = yarn;
    largestYarn.rope.factor = 1e6;
    largestYarn.rope.originalMaxLen = 256;
    s.append({u"yarn, the largest factor"_s, largestYarn});
    Params llama = rope(RopeType::Llama3, 128, 500000.0, 16384);
    llama.rope.factor = 8.0;
    llama.rope.originalMaxLen = 8192;
    s.append({u"llama3 (Llama 3.1)"_s, llama});
    Params llama32 = rope(RopeType::Llama3, 64, 500000.0, L);
    llama32.rope.factor = 32.0;
    llama32.rope.originalMaxLen = 8192;
    s.append({u"llama3 (Llama 3.2 1B)"_s, llama32});
    Params scout = llama;
    scout.rope.layout = RopeLayout::Interleaved;
    scout.rope.factor = 16.0;
    scout.rope.highFreqFactor = 1.0;
    s.append({u"llama3, low = high (Llama 4 Scout)"_s, scout});
    Params oddBands = llama;
    oddBands.rope.lowFreqFactor = 2.0;
    oddBands.rope.highFreqFactor = 8.0;
    s.append({u"llama3, low 2 high 8"_s, oddBands});
    Params longrope = rope(RopeType::LongRope, 64, 10000.0, 4096);
    longrope.rope.factor = 8.0;
    longrope.rope.originalMaxLen = 2048;
    for (std::int64_t i = 0; i < 32; ++i) {
        longrope.rope.shortFactor.push_back(1.0);
        longrope.rope.longFactor.push_back(1.0 + 0.25 * double(i));
    }
    s.append({u"longrope, long factors"_s, longrope});
    Params proportional = rope(RopeType::Proportional, 256, 1e6, L);
    proportional.rope.partialRotaryFactor = 0.25;
    s.append({u"proportional (Gemma 4)"_s, proportional});
    Params neox = rope(RopeType::Default, 96, 10000.0, 2048);
    neox.rope.partialRotaryFactor = 0.25;
    s.append({u"partial rotary (GPT-NeoX)"_s, neox});
    return s;
}

QList<Case> ropeCases()
{
    QList<Case> cases;
    for (const auto &[name, params] : ropeSettings()) {
        for (const RopeLayout layout : {RopeLayout::Half, RopeLayout::Interleaved}) {
            Params p = params;
            p.rope.layout = layout;
            for (const QString &quantity : {u"rope-cos"_s, u"rope-sin"_s}) {
                QString unknown;
                if (quantity == u"rope-sin"_s && p.maxLen == 1)
                    unknown = u"every cell is 0"_s;
                cases.append(
                    {u"%1 %2 %3"_s.arg(quantity, name, layout == RopeLayout::Half ? u"half"_s : u"interleaved"_s), p,
                     quantity, unknown});
            }
        }
    }
    return cases;
}

QList<Case> relativeCases()
{
    QList<Case> cases;
    const QList<std::int64_t> lengths
        = longMode() ? QList<std::int64_t> {1, 2, 64, 1024, 16384} : QList<std::int64_t> {1, 2, 64, 1024};
    for (const std::int64_t L : lengths) {
        const QString zero = L == 1 ? u"every cell is 0"_s : QString();
        for (const std::int64_t heads : {1, 8, 12, 4096}) {
            for (const std::int64_t head : {std::int64_t(1), heads}) {
                for (const AlibiMask mask : {AlibiMask::Causal, AlibiMask::Symmetric}) {
                    Params p;
                    p.encoding = Encoding::Alibi;
                    p.maxLen = L;
                    p.alibi = {heads, head, mask};
                    cases.append({u"alibi H %1 K %2 %3 L %4"_s.arg(heads).arg(head).arg(int(mask)).arg(L), p,
                                  u"alibi-bias"_s, zero});
                }
            }
        }
        for (const auto &[buckets, distance] :
             QList<std::pair<std::int64_t, std::int64_t>> {{4, 3}, {32, 128}, {64, 1000}, {65536, 32769}}) {
            for (const bool causal : {false, true}) {
                Params p;
                p.encoding = Encoding::T5;
                p.maxLen = L;
                p.t5 = {buckets, distance, causal};
                cases.append(
                    {u"t5 %1/%2 %3 L %4"_s.arg(buckets).arg(distance).arg(causal).arg(L), p, u"t5-bucket"_s, zero});
            }
        }
        for (const auto &[buckets, position] :
             QList<std::pair<std::int64_t, std::int64_t>> {{2, 3}, {256, 512}, {128, 256}, {65536, 32770}}) {
            Params p;
            p.encoding = Encoding::Deberta;
            p.maxLen = L;
            p.deberta = {buckets, position};
            cases.append({u"deberta %1/%2 L %3"_s.arg(buckets).arg(position).arg(L), p, u"deberta-bucket"_s, zero});
        }
    }
    return cases;
}

// Sandwich over its rows' corners: heads, head 1 and H, head dims odd and even, both masks. One
// position is too few for any table (and 0 for an even d); two hold distances 0 and 1 alone, which do not tell d from
// the scale, and bidirectional with an even d they are [[0, -m], [-m, 0]], a linear bias, which ALiBi's hypothesis
// reads with a slope get_slopes gives no head. d = 1's one frequency, 1e-8, turns by less than float32 shows over 1,024
// positions: every cell 1/2 / (8K/H), every row the same, which is Sandwich's own table, not the mistake same-row.
QList<Case> sandwichCases()
{
    QList<Case> cases;
    const QList<std::int64_t> lengths
        = longMode() ? QList<std::int64_t> {1, 2, 3, 64, 1024, 16384} : QList<std::int64_t> {1, 2, 3, 64, 1024};
    for (const std::int64_t L : lengths) {
        for (const std::int64_t heads : {1, 12, 4096}) {
            for (const std::int64_t head : {std::int64_t(1), heads}) {
                for (const std::int64_t d : {1, 2, 5, 64, 4096}) {
                    for (const SandwichMask mask : {SandwichMask::Causal, SandwichMask::Bidirectional}) {
                        Params p;
                        p.encoding = Encoding::Sandwich;
                        p.maxLen = L;
                        p.sandwich = {heads, head, d, mask};
                        QString unknown;
                        if (L == 1)
                            unknown = d % 2 == 0 ? u"every cell is 0"_s : u"too few"_s;
                        else if (d == 1)
                            unknown.clear(); // every cell 1/2 / (8K/H) at any L: Sandwich's own
                        else if (L == 2 && mask == SandwichMask::Bidirectional && d % 2 == 0)
                            unknown = u"linear bias"_s;
                        else if (L == 2)
                            unknown = u"rows"_s;
                        cases.append(
                            {u"sandwich H %1 K %2 d %3 %4 L %5"_s.arg(heads).arg(head).arg(d).arg(int(mask)).arg(L), p,
                             u"sandwich-bias"_s, unknown});
                    }
                }
            }
        }
    }
    return cases;
}

// The vision families' tables: 2-D sin-cos grids (one row, one column, with and without the cls
// token, diffusers' base_size) and 2-D RoPE's four styles at small and model-sized heads.
QList<Case> visionCases()
{
    QList<Case> cases;
    struct Grid
    {
        std::int64_t h, w;
    };
    for (const Grid g : {Grid {1, 8}, Grid {8, 1}, Grid {2, 3}, Grid {14, 14}, Grid {16, 24}}) {
        for (const std::int64_t d : {8, 64}) {
            for (const bool cls : {false, true}) {
                Params p;
                p.encoding = Encoding::Sincos2d;
                p.dModel = d;
                p.sincos2d.grid = {g.h, g.w};
                p.sincos2d.clsToken = cls;
                p.maxLen = g.h * g.w + (cls ? 1 : 0);
                cases.append({u"sincos-2d %1x%2 d %3%4"_s.arg(g.h).arg(g.w).arg(d).arg(cls ? u" cls"_s : QString()),
                              p,
                              u"pe"_s,
                              {}});
                if (cls)
                    continue;
                p.sincos2d.baseSize = 16.0;
                cases.append({u"sincos-2d %1x%2 d %3 base 16"_s.arg(g.h).arg(g.w).arg(d), p, u"pe"_s, {}});
            }
        }
    }
    struct Style
    {
        Rope2dStyle style;
        std::int64_t head;
        std::vector<std::int64_t> axes;
        double theta;
    };
    const QList<Style> styles {{Rope2dStyle::QwenVit, 8, {}, 10000.0},
                               {Rope2dStyle::QwenVit, 80, {}, 10000.0},
                               {Rope2dStyle::Pixtral, 8, {}, 10000.0},
                               {Rope2dStyle::Pixtral, 64, {}, 10000.0},
                               {Rope2dStyle::Flux, 16, {4, 6, 6}, 10000.0},
                               {Rope2dStyle::Flux, 128, {16, 56, 56}, 10000.0},
                               {Rope2dStyle::Flux, 128, {32, 32, 32, 32}, 2000.0},
                               {Rope2dStyle::Axial, 16, {}, 100.0},
                               {Rope2dStyle::Axial, 64, {}, 100.0}};
    for (const Style &s : styles) {
        for (const Grid g : {Grid {2, 2}, Grid {4, 6}, Grid {16, 16}}) {
            for (const QString &table : {u"rope2d-cos"_s, u"rope2d-sin"_s}) {
                Params p;
                p.encoding = Encoding::Rope2d;
                p.dModel = s.head;
                p.rope.headDim = s.head;
                p.rope.theta = s.theta;
                p.rope2d.style = s.style;
                if (!s.axes.empty())
                    p.rope2d.axesDim = s.axes;
                p.rope2d.patch = {0, 0};
                p.sincos2d.grid = {g.h, g.w};
                cases.append(
                    {u"rope-2d %1 head %2 %3x%4 %5"_s.arg(int(s.style)).arg(s.head).arg(g.h).arg(g.w).arg(table),
                     p,
                     table,
                     {}});
            }
        }
    }
    return cases;
}

// Each family's published forms, at a length their tables show.
QList<Case> publishedCases()
{
    QList<Case> cases;
    for (const FamilySpec &family : Families::all()) {
        if (!FamilyChecks::of(family.encoding).table || !FamilyChecks::of(family.encoding).table->publishedForms)
            continue;
        for (const std::int64_t cols : {64, 128, 256, 24, 512}) {
            for (const PublishedForm &form : FamilyChecks::of(family.encoding).table->publishedForms(cols)) {
                Params p = form.params;
                p.maxLen = family.encoding == Encoding::Rope ? 8192 : 1024;
                const QString quantity = quantityOf(form.table);
                cases.append(
                    {u"published: %1, %2 (%3 columns)"_s.arg(form.name, form.table).arg(cols), p, quantity, {}});
            }
        }
    }
    return cases;
}

// The table the match names, from its parameters, equals the one checked: what "identified" means.
void reproduces(const TableMatch &m, const RowMatrixXf &table)
{
    QVERIFY(m.params);
    const QString quantity = quantityOf(m.table);
    Params p = *m.params;
    p.maxLen = table.rows();
    const RowMatrixXf again = written(p, quantity);
    QCOMPARE(again.rows(), table.rows());
    QCOMPARE(again.cols(), table.cols());
    for (std::int64_t i = 0; i < table.rows(); ++i) {
        for (std::int64_t j = 0; j < table.cols(); ++j) {
            const float a = again(i, j), b = table(i, j);
            if (a == b)
                continue;
            QVERIFY2(std::fabs(a - b) <= 2.5e-7f * std::max(1.0f, std::fabs(b)) + float(m.tolerance.absolute),
                     qPrintable(u"row %1, column %2: %3 against %4"_s.arg(i).arg(j).arg(a).arg(b)));
        }
    }
}

} // namespace

class TestTableRoundTrip : public QObject
{
    Q_OBJECT

private slots:
    void tablesAreIdentified_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<QString>("quantity");
        QTest::addColumn<QString>("unknownBecause");
        const QList<Case> cases
            = sinusoidCases() + ropeCases() + relativeCases() + sandwichCases() + visionCases() + publishedCases();
        for (const Case &c : cases)
            QTest::newRow(qPrintable(c.name)) << c.params << c.quantity << c.unknownBecause;
    }
    void tablesAreIdentified()
    {
        POSENC_SAMPLE_UNDER_SANITIZER();
        QFETCH(Params, params);
        QFETCH(QString, quantity);
        QFETCH(QString, unknownBecause);
        const QList<ParamError> errors = params.validate();
        QVERIFY2(errors.isEmpty(),
                 qPrintable(errors.isEmpty() ? QString() : errors.first().key + u": "_s + errors.first().problem));
        const RowMatrixXf table = written(params, quantity);
        // The family named, as `posenc check --expect FAMILY` names it: a RoPE table at theta 10000
        // is also a sinusoid whose sines or cosines were replaced, which only a declaration tells.
        TableCheck::Declared declared;
        declared.family = params.encoding;
        const Checked c = check(table, StoredType::Float32, declared);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        const TableMatch &m = c.match;
        const QString report = m.diagnosis + u" | "_s + m.deviations + u" | "_s + m.notes.join(u" | "_s);
        if (!unknownBecause.isEmpty()) {
            QVERIFY2(m.verdict != CheckVerdict::Correct, qPrintable(report));
            QVERIFY2((m.diagnosis + m.notes.join(u' ')).contains(unknownBecause), qPrintable(report));
            return;
        }
        // Correct for a published form (named), a variant at other parameters.
        const bool published = QByteArray(QTest::currentDataTag()).startsWith("published:");
        QVERIFY2(m.verdict == CheckVerdict::Correct || (!published && m.verdict == CheckVerdict::Variant),
                 qPrintable(report));
        QCOMPARE(m.correctAgainst.isEmpty(), m.verdict != CheckVerdict::Correct);
        if (QByteArray(QTest::currentDataTag()).contains("DeepSeek-V2"))
            QVERIFY2(m.correctAgainst.contains(u"DeepSeek-V3"_s), qPrintable(report));
        QCOMPARE(*m.family, params.encoding);
        QCOMPARE(quantityOf(m.table), quantity);
        reproduces(m, table);
    }

    // A caller names the reference (a family, its parameters, its table): the report is the same
    // as identify's, correct against the table's own parameters and a mistake at the cells that
    // deviate against others; a table the family does not have is refused.
    void expectComparesWithThoseParameters_data()
    {
        QTest::addColumn<Params>("params");
        QTest::addColumn<Params>("other");
        QTest::addColumn<QString>("quantity");
        Params sinusoid;
        sinusoid.dModel = 64;
        sinusoid.maxLen = 1024;
        Params base500 = sinusoid;
        base500.sinusoidal.base = 500.0;
        QTest::newRow("sinusoidal, base 500 expected") << sinusoid << base500 << u"pe"_s;
        Params llama = rope(RopeType::Llama3, 128, 500000.0, 4096);
        llama.rope.factor = 8.0;
        llama.rope.originalMaxLen = 8192;
        QTest::newRow("llama3, default expected")
            << llama << rope(RopeType::Default, 128, 500000.0, 4096) << u"rope-cos"_s;
        Params alibi;
        alibi.encoding = Encoding::Alibi;
        alibi.maxLen = 512;
        alibi.alibi = {16, 3, AlibiMask::Causal};
        Params head4 = alibi;
        head4.alibi.head = 4;
        QTest::newRow("alibi, another head expected") << alibi << head4 << u"alibi-bias"_s;
        Params t5;
        t5.encoding = Encoding::T5;
        t5.maxLen = 512;
        Params t5Short = t5;
        t5Short.t5.maxDistance = 64;
        QTest::newRow("t5, max_distance 64 expected") << t5 << t5Short << u"t5-bucket"_s;
        Params deberta;
        deberta.encoding = Encoding::Deberta;
        deberta.maxLen = 512;
        Params fewer = deberta;
        fewer.deberta = {128, 256};
        QTest::newRow("deberta, 128/256 expected") << deberta << fewer << u"deberta-bucket"_s;
        Params sandwich;
        sandwich.encoding = Encoding::Sandwich;
        sandwich.maxLen = 512;
        sandwich.sandwich = {12, 3, 64, SandwichMask::Causal};
        Params otherDim = sandwich;
        otherDim.sandwich.headDim = 66;
        QTest::newRow("sandwich, d 66 expected") << sandwich << otherDim << u"sandwich-bias"_s;
    }
    void expectComparesWithThoseParameters()
    {
        QFETCH(Params, params);
        QFETCH(Params, other);
        QFETCH(QString, quantity);
        const MatrixRows rows(std::make_shared<const RowMatrixXf>(written(params, quantity)), StoredType::Float32,
                              u"t"_s);
        const QString word = quantity == u"pe"_s ? u"sinusoidal"_s : quantity;
        const auto against = [&](const Params &p) {
            auto expected = TableCheck::expect(rows, p.encoding, p, word);
            TableMatch m = std::get<TableMatch>(expected);
            TableCheck::conclude(m, TableCheck::verify(m, rows, {}));
            return m;
        };
        const TableMatch same = against(params);
        QVERIFY2(same.verdict == CheckVerdict::Correct, qPrintable(same.diagnosis + u" | "_s + same.deviations));
        QCOMPARE(*same.family, params.encoding);
        QCOMPARE(same.table, word);
        const TableMatch wrong = against(other);
        QCOMPARE(wrong.verdict, CheckVerdict::Mistake);
        QVERIFY(!wrong.deviations.isEmpty());
        QVERIFY(*wrong.maxAbsError > 1e-4);
        QVERIFY(std::holds_alternative<QString>(TableCheck::expect(rows, params.encoding, params, u"nope"_s)));
        QVERIFY(std::holds_alternative<QString>(TableCheck::expect(rows, Encoding::None, params, word)));
    }
};

QTEST_APPLESS_MAIN(TestTableRoundTrip)
#include "tst_tableroundtrip.moc"
