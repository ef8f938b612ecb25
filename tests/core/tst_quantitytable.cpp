// The quantity table's words and bounds, which the figures read from the rows: every row
// complete; the label of X, Y and the mask following the parameters (concat's X is [s·E | PE],
// embedding-only dropout is dropout(s·E) + PE, masked-fill never claims Y = X); each colour bound
// against a float64 formula written here; the parts of a title that name the parameters; where a
// quantity holds the PE that the heatmap averages in closed form.
#include "core/NumberText.h"
#include "core/Quantity.h"
#include "core/TitleText.h"
#include "core/learned/LearnedParams.h"
#include "support/TestMain.h"

#include <QTest>

#include <cmath>
#include <memory>

namespace tst_quantitytable {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

Params under(Encoding encoding)
{
    Params p;
    p.encoding = encoding;
    p.dModel = 64;
    p.maxLen = 1024;
    return p;
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TestQuantityTable : public QObject
{
    Q_OBJECT

private slots:
    void everyRowIsComplete();
    void labelsAreOneEach();
    void labelFollowsParameters_data();
    void labelFollowsParameters();
    void bound_data();
    void bound();
    void boundIsOneWhereTheRowHasNone();
    void titleParts();
    void peInCells();
};

void TestQuantityTable::everyRowIsComplete()
{
    for (const QuantitySpec &row : Quantities::rows()) {
        const QByteArray name = row.name.toUtf8();
        QVERIFY2(!row.label.isEmpty() && !row.help.isEmpty() && !row.reads.isEmpty(), name.constData());
        QVERIFY2(row.missing && row.shape && row.workCells && row.fill, name.constData());
        QVERIFY2(row.bound && row.parameters, name.constData());
        // Each family's own quantity has words for its own family's parameters.
        for (const Params &p : {under(Encoding::Sinusoidal), under(Encoding::Rope), under(Encoding::Alibi),
                                under(Encoding::T5), under(Encoding::Deberta)}) {
            if (row.missing(p))
                continue;
            QVERIFY2(!row.parameters(p).isEmpty(), name.constData());
            QVERIFY2(Quantities::bound(row.quantity, p) > 0.0, name.constData());
        }
    }
}

// One label a quantity: "T5 bucket of j − i" (T5's relative position is key − query) and
// "DeBERTa bucket of i − j" (query − key), and "ALiBi bias", whose cells are −m·(i − j) under the
// causal mask and −m·|i − j| under the symmetric one.
void TestQuantityTable::labelsAreOneEach()
{
    QStringList labels;
    for (const QuantitySpec &row : Quantities::rows()) {
        QVERIFY2(!labels.contains(row.label), qPrintable(row.label));
        labels.append(row.label);
        QCOMPARE(Quantities::label(row.quantity), row.label);
    }
    QCOMPARE(Quantities::label(Quantity::T5Bucket), u"T5 bucket of j − i"_s);
    QCOMPARE(Quantities::label(Quantity::DebertaBucket), u"DeBERTa bucket of i − j"_s);
    QCOMPARE(Quantities::label(Quantity::AlibiBias), u"ALiBi bias"_s);
    QCOMPARE(Quantities::label(Quantity::AlibiBias, under(Encoding::Alibi)), u"ALiBi bias"_s);
}

void TestQuantityTable::labelFollowsParameters_data()
{
    QTest::addColumn<int>("quantity");
    QTest::addColumn<Params>("params");
    QTest::addColumn<QString>("label");
    const Params base;
    Params concat = base;
    concat.compose = Compose::Concat;
    Params embedding = base;
    embedding.dropoutMode = DropoutMode::Embedding;
    Params embeddingConcat = embedding;
    embeddingConcat.compose = Compose::Concat;
    Params evaluation = base;
    evaluation.training = false;
    Params noDropout = base;
    noDropout.dropout = 0.0;
    Params maskedFill = base;
    maskedFill.dropoutMode = DropoutMode::MaskedFill;
    maskedFill.seqLen = 100;
    Params maskedFillEval = maskedFill;
    maskedFillEval.training = false;
    Params maskedFillNoPadding = maskedFill;
    maskedFillNoPadding.seqLen.reset();
    Params protect = base;
    protect.dropoutMode = DropoutMode::ProtectSpecial;
    const Params nope = under(Encoding::None);

    const int input = static_cast<int>(Quantity::Input);
    const int output = static_cast<int>(Quantity::Output);
    QTest::newRow("sum X") << input << base << u"X = s·E + PE"_s;
    QTest::newRow("concat X") << input << concat << u"X = [s·E | PE]"_s;
    QTest::newRow("NoPE X") << input << nope << u"X = s·E"_s;
    QTest::newRow("sum Y") << output << base << u"Y = dropout(X)"_s;
    QTest::newRow("embedding Y") << output << embedding << u"Y = dropout(s·E) + PE"_s;
    QTest::newRow("embedding concat Y") << output << embeddingConcat << u"Y = [dropout(s·E) | PE]"_s;
    QTest::newRow("protect-special Y") << output << protect << u"Y = dropout(X), special rows kept"_s;
    QTest::newRow("evaluation Y") << output << evaluation << u"Y = X"_s;
    QTest::newRow("p = 0 Y") << output << noDropout << u"Y = X"_s;
    QTest::newRow("masked-fill Y") << output << maskedFill << u"Y = dropout(X, padding rows zeroed)"_s;
    QTest::newRow("masked-fill evaluation Y") << output << maskedFillEval << u"Y = X, padding rows zeroed"_s;
    QTest::newRow("masked-fill without padding") << output << maskedFillNoPadding << u"Y = dropout(X)"_s;
    QTest::newRow("mask") << static_cast<int>(Quantity::Mask) << base << u"mask (1 kept, 0 dropped)"_s;
    QTest::newRow("pe") << static_cast<int>(Quantity::Pe) << concat << u"PE"_s;
}

void TestQuantityTable::labelFollowsParameters()
{
    QFETCH(int, quantity);
    QFETCH(Params, params);
    QFETCH(QString, label);
    QCOMPARE(Quantities::label(static_cast<Quantity>(quantity), params), label);
}

void TestQuantityTable::bound_data()
{
    QTest::addColumn<int>("quantity");
    QTest::addColumn<Params>("params");
    QTest::addColumn<double>("expected");
    const auto row = [](const char *name, Quantity q, const Params &p, double expected) {
        QTest::newRow(name) << static_cast<int>(q) << p << expected;
    };
    Params p = under(Encoding::Sinusoidal); // s = √64 = 8, σ = 1, dropout 0.1
    row("pe", Quantity::Pe, p, 1.0);
    row("mask", Quantity::Mask, p, 1.0);
    row("s·E: 3 s σ", Quantity::Embedding, p, 3.0 * 8.0);
    row("X in the sum: 1 + 3 s σ", Quantity::Input, p, 1.0 + 24.0);
    row("Y: X over 1 - p", Quantity::Output, p, 25.0 / 0.9);
    Params concat = p;
    concat.compose = Compose::Concat;
    concat.peDims = 16;
    row("X in concat: the wider of the two", Quantity::Input, concat, 24.0);
    row("S = PE·PEᵀ: k/2", Quantity::Similarity, concat, 8.0);
    row("float32 error: (L - 1) 2^-23 + 2^-24", Quantity::Error, p,
        1023.0 * std::ldexp(1.0, -23) + std::ldexp(1.0, -24));
    Params evaluation = p;
    evaluation.training = false;
    row("Y in evaluation: X", Quantity::Output, evaluation, 25.0);
    Params all = p;
    all.dropout = 1.0;
    row("Y with every cell dropped", Quantity::Output, all, 1.0);
    // A family that adds no term: X = s·E, its bound s·E's alone (Llama 4 Scout: s 1, σ 0.014).
    Params rope = under(Encoding::Rope);
    rope.rope.headDim = 64;
    rope.scaleKind = ScaleKind::Custom;
    rope.customScale = 1.0;
    rope.init = InitKind::Custom;
    rope.customSigma = 0.014;
    row("X of a family that adds no term: 3 s σ", Quantity::Input, rope, 3.0 * 0.014);
    row("its Y: X over 1 - p", Quantity::Output, rope, 3.0 * 0.014 / (1.0 - rope.dropout));
    Params yarn = under(Encoding::Rope);
    yarn.rope.headDim = 64;
    yarn.rope.type = RopeType::Yarn;
    yarn.rope.factor = 16.0;
    yarn.rope.originalMaxLen = 256;
    // _compute_yarn_parameters' default attention factor, get_mscale(16) = 0.1 ln 16 + 1.
    const double mscale = 0.1 * std::log(16.0) + 1.0;
    row("rope-cos: the attention factor", Quantity::RopeCos, yarn, mscale);
    row("rope-sin: the attention factor", Quantity::RopeSin, yarn, mscale);
    row("rope-input: 3 s σ times the attention factor", Quantity::RopeInput, yarn, 24.0 * mscale);
    row("rope-score", Quantity::RopeScore, yarn, 1.0);
    Params alibi = under(Encoding::Alibi);
    alibi.alibi.heads = 8;
    alibi.alibi.head = 3;
    // get_slopes(8): 2^(-8k/8) for head k.
    row("alibi-bias: m_K (L - 1)", Quantity::AlibiBias, alibi, std::pow(2.0, -3.0) * 1023.0);
    Params t5 = under(Encoding::T5);
    t5.t5.buckets = 32;
    row("t5-bucket: the last bucket", Quantity::T5Bucket, t5, 31.0);
    Params deberta = under(Encoding::Deberta);
    deberta.deberta.buckets = 256;
    deberta.deberta.maxPosition = 512;
    // make_log_bucket_position(1023, 256, 512): 128 + ceil(ln(1023/128) / ln(511/128) · 127).
    row("deberta-bucket: the farthest pair's", Quantity::DebertaBucket, deberta,
        128.0 + std::ceil(std::log(1023.0 / 128.0) / std::log(511.0 / 128.0) * 127.0));
    // A loaded table: the largest |value| of the rows in use (offset 1, L 2: rows 1 and 2), not ±1.
    Params learned = under(Encoding::Learned);
    RowMatrixXf values(4, 2);
    values << 9.0f, 0.1f, -0.5f, 0.25f, 0.3f, -2.5f, 7.0f, 1.0f;
    learned.learned.table = std::make_shared<const PositionMatrix>(PositionMatrix {values, u"four rows"_s});
    learned.learned.offset = 1;
    learned.maxLen = 2;
    learned.dModel = 2;
    row("pe of a loaded table: its rows' largest", Quantity::Pe, learned, 2.5);
    row("X of it in the sum: that + 3 s σ", Quantity::Input, learned, 2.5 + 3.0 * std::sqrt(2.0));
}

void TestQuantityTable::bound()
{
    QFETCH(int, quantity);
    QFETCH(Params, params);
    QFETCH(double, expected);
    QVERIFY2(params.isValid(), qPrintable(params.validate().value(0).sentence()));
    const double got = Quantities::bound(static_cast<Quantity>(quantity), params);
    QVERIFY2(close(got, expected), qPrintable(u"%1, expected %2"_s.arg(got, 0, 'g', 17).arg(expected, 0, 'g', 17)));
}

// A bound the parameters cannot give (s·E of σ 0) is 1, never 0 or NaN: a colour range needs a width.
void TestQuantityTable::boundIsOneWhereTheRowHasNone()
{
    Params p = under(Encoding::Sinusoidal);
    p.init = InitKind::Custom;
    p.customSigma = 0.0;
    QCOMPARE(Quantities::spec(Quantity::Embedding).bound(p), 0.0);
    QCOMPARE(Quantities::bound(Quantity::Embedding, p), 1.0);
    // A family's bound under another encoding reads nothing of that family.
    QCOMPARE(Quantities::bound(Quantity::AlibiBias, under(Encoding::Sinusoidal)), 1.0);
    QCOMPARE(Quantities::bound(Quantity::RopeCos, under(Encoding::Sinusoidal)), 1.0);
}

void TestQuantityTable::titleParts()
{
    Params params;
    params.dModel = 512;
    params.maxLen = 1024;
    QCOMPARE(TitleText::tableText(params), u"d = 512, L = 1,024"_s);
    QCOMPARE(TitleText::scaleText(params), u"s = √d = %1"_s.arg(NumberText::compact(std::sqrt(512.0))));
    QCOMPARE(Quantities::spec(Quantity::Pe).parameters(params), QStringList {u"d = 512, L = 1,024"_s});
    params.scaleKind = ScaleKind::One;
    QCOMPARE(TitleText::scaleText(params), u"s = 1"_s);
    QCOMPARE(TitleText::sigmaText(params), u"σ = 1"_s);
    params.init = InitKind::ScaledNormal;
    QCOMPARE(TitleText::sigmaText(params), u"σ = d^-1/2 = %1"_s.arg(NumberText::compact(1.0 / std::sqrt(512.0))));
    QCOMPARE(TitleText::dropoutText(params), u"p = 0.1, dropout mode sum"_s);
    QCOMPARE(Quantities::spec(Quantity::Mask).parameters(params),
             (QStringList {u"d = 512, L = 1,024"_s, u"p = 0.1, dropout mode sum"_s}));
    params.training = false;
    QCOMPARE(TitleText::dropoutText(params), u"evaluation: no dropout"_s);
    params.compose = Compose::Concat;
    params.peDims = 256;
    QCOMPARE(TitleText::composeText(params), u"s·E in columns 0–255, PE (k = 256) in 256–511"_s);
    QCOMPARE(Quantities::spec(Quantity::Pe).parameters(params),
             QStringList {u"k = 256 columns (X's 256–511), L = 1,024"_s});
    Params t5 = under(Encoding::T5);
    t5.t5.causal = true;
    QCOMPARE(Quantities::spec(Quantity::T5Bucket).parameters(t5),
             QStringList {u"32 buckets, max distance 128, causal, L = 1,024"_s});
}

void TestQuantityTable::peInCells()
{
    const auto pe = [](Quantity q, const Params &p) {
        const QuantitySpec &row = Quantities::spec(q);
        return row.peCells ? row.peCells(p) : std::nullopt;
    };
    Params p = under(Encoding::Sinusoidal);
    QVERIFY(pe(Quantity::Pe, p) && pe(Quantity::Pe, p)->alone);
    QVERIFY(pe(Quantity::Input, p) && !pe(Quantity::Input, p)->alone);
    QVERIFY(!pe(Quantity::Embedding, p));
    QVERIFY(!pe(Quantity::Mask, p));
    QVERIFY(!pe(Quantity::Similarity, p));
    Params concat = p;
    concat.compose = Compose::Concat;
    concat.peDims = 16;
    QCOMPARE(pe(Quantity::Input, concat)->column0, std::int64_t(48));
    Params maskedFill = p;
    maskedFill.dropoutMode = DropoutMode::MaskedFill;
    maskedFill.seqLen = 100;
    QCOMPARE(pe(Quantity::Output, maskedFill)->rowEnd, std::int64_t(100));
    // p = 1 drops X whole, but the embedding mode keeps the PE.
    Params all = p;
    all.dropout = 1.0;
    QVERIFY(!pe(Quantity::Output, all));
    all.dropoutMode = DropoutMode::Embedding;
    QVERIFY(pe(Quantity::Output, all));
}

POSENC_TEST_GUILESS_MAIN(TestQuantityTable)
} // namespace tst_quantitytable
#include "tst_quantitytable.moc"
