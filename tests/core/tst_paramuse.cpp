// Which parameters the current settings ignore: every claim of ParamUse::idle is checked against
// the engine's tables. An idle parameter changes no cell of any table; a parameter said to matter
// changes some cell for some other value, so the window never disables a control that would do
// something, nor leaves one enabled that does nothing.
#include "core/Engine.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QTest>

#include <cstring>

namespace tst_paramuse {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

const QString kCustomScale = QString::fromUtf16(ParamUse::kCustomScale);
const QString kCustomSigma = QString::fromUtf16(ParamUse::kCustomSigma);

std::shared_ptr<const EmbeddingMatrix> matrix(std::int64_t rows, std::int64_t cols)
{
    auto m = std::make_shared<EmbeddingMatrix>();
    m->values = RowMatrixXf::NullaryExpr(rows, cols, [](Eigen::Index r, Eigen::Index c) {
        return 0.5f + 0.01f * static_cast<float>(r) - 0.02f * static_cast<float>(c);
    });
    m->source = u"test.npy"_s;
    return m;
}

Params with(Params p, const QString &key, const QString &text)
{
    if (const auto error = ParamText::set(p, key, text))
        qFatal("%s", qPrintable(error->sentence()));
    return p;
}

Params small()
{
    Params p;
    p.dModel = 12;
    p.maxLen = 16;
    p.dropout = 0.4;
    return p;
}

Params loaded(Params p)
{
    p.embeddings = matrix(p.maxLen, p.embeddingColumns());
    return p;
}

// Settings where parameters start or stop to matter: the shared rows' here, each family's in its
// record (tests/families/<family>/).
QList<std::pair<QString, Params>> settings()
{
    const Params base = small();
    const Params concat = with(base, u"compose"_s, u"concat"_s);
    const Params protect = with(base, u"dropout-mode"_s, u"protect-special"_s);
    const Params maskedFill = with(with(base, u"dropout-mode"_s, u"masked-fill"_s), u"seq-len"_s, u"9"_s);
    Params custom = with(with(base, u"scale"_s, u"1.5"_s), u"init"_s, u"0.5"_s);
    const QList<std::pair<QString, Params>> list = {
        {u"defaults"_s, base},
        {u"evaluation"_s, with(base, u"eval"_s, u"true"_s)},
        {u"p = 0"_s, with(base, u"dropout"_s, u"0"_s)},
        {u"p = 1"_s, with(base, u"dropout"_s, u"1"_s)},
        {u"embedding mode"_s, with(base, u"dropout-mode"_s, u"embedding"_s)},
        {u"concat k 4"_s, with(concat, u"pe-dims"_s, u"4"_s)},
        {u"concat k = d"_s, with(concat, u"pe-dims"_s, u"12"_s)},
        {u"concat k 0"_s, with(concat, u"pe-dims"_s, u"0"_s)},
        {u"masked-fill"_s, maskedFill},
        {u"masked-fill evaluation"_s, with(maskedFill, u"eval"_s, u"true"_s)},
        {u"protect-special"_s, protect},
        {u"protect-special evaluation"_s, with(protect, u"eval"_s, u"true"_s)},
        {u"protect-special p = 0"_s, with(protect, u"dropout"_s, u"0"_s)},
        {u"protect-special from the start"_s, with(protect, u"special"_s, u"0,3"_s)},
        {u"custom scale and sigma"_s, custom},
        {u"loaded matrix"_s, loaded(base)},
        {u"loaded matrix, evaluation"_s, loaded(with(base, u"eval"_s, u"true"_s))},
        {u"loaded matrix, p = 1"_s, loaded(with(base, u"dropout"_s, u"1"_s))},
    };
    QList<std::pair<QString, Params>> families;
    for (const TestFamily &family : TestFamilies::all())
        for (const auto &[name, setting] : TestFamilies::idleSettings(family))
            families.append({name, TestFamilies::applied(base, setting)});
    return list + families;
}

// The family whose row `key` is, or nothing for a shared row.
const TestFamily *familyOf(const QString &key)
{
    for (const TestFamily &family : TestFamilies::all())
        if (family.rowKeys.contains(key))
            return &family;
    return nullptr;
}

// Other values of each key, as a change of the control would make them.
QList<Params> alternatives(const Params &p, const QString &key)
{
    QList<Params> out;
    if (key == kCustomScale) {
        Params q = p;
        q.customScale += 1.0;
        return {q};
    }
    if (key == kCustomSigma) {
        Params q = p;
        q.customSigma += 0.25;
        return {q};
    }
    static const QHash<QString, QStringList> values = {
        {u"d-model"_s, {u"16"_s, u"8"_s}},
        {u"max-len"_s, {u"12"_s, u"20"_s}},
        {u"scale"_s, {u"2.5"_s, u"sqrt"_s}},
        {u"init"_s, {u"0.3"_s, u"normal"_s}},
        {u"compose"_s, {u"concat"_s, u"sum"_s}},
        {u"pe-dims"_s, {u"6"_s, u"4"_s}},
        {u"dropout"_s, {u"0.7"_s, u"0.4"_s}},
        {u"dropout-mode"_s, {u"sum"_s, u"embedding"_s, u"pe"_s, u"protect-special"_s, u"masked-fill"_s}},
        {u"special"_s, {u"1,2"_s, u"0,-1"_s}},
        {u"seq-len"_s, {u"5"_s, u"auto"_s}},
        {u"seed"_s, {u"7"_s, u"0"_s}},
        {u"eval"_s, {u"true"_s, u"false"_s}},
    };
    const TestFamily *family = familyOf(key);
    for (const QString &text : family ? TestFamilies::otherValues(*family, key) : values.value(key)) {
        Params q = with(p, key, text);
        // A loaded matrix fixes d_model to its columns plus the PE's, as the window sets it.
        if (p.embeddings && key == u"compose"_s)
            q.dModel = q.compose == Compose::Concat ? 2 * p.embeddings->values.cols() : p.embeddings->values.cols();
        // What the change brings along in the window, as each family's record says.
        for (const TestFamily &f : TestFamilies::all())
            if (f.alongside)
                f.alongside(p, q, key);
        if (!(q == p))
            out.append(q);
    }
    return out;
}

// The shared rows' keys, then each family's rows but a matrix read from a file.
QStringList keys()
{
    QStringList list = {u"d-model"_s,      u"max-len"_s, u"scale"_s,   u"custom-scale"_s, u"init"_s,
                        u"custom-sigma"_s, u"compose"_s, u"pe-dims"_s, u"dropout"_s,      u"dropout-mode"_s,
                        u"special"_s,      u"seq-len"_s, u"seed"_s,    u"eval"_s};
    for (const TestFamily &family : TestFamilies::all())
        for (const QString &key : family.rowKeys)
            if (ParamTable::find(key)->kind != ParamKind::Matrix)
                list.append(key);
    return list;
}

// Whether any table differs between the two parameter sets.
bool tablesDiffer(const Params &a, const Params &b)
{
    // What a family's tables do not show (RoPE's softmax scale), as its record says.
    for (const TestFamily &family : TestFamilies::all())
        if (family.differs && family.differs(a, b))
            return true;
    const QList<Quantity> quantities = Quantities::available(a);
    if (quantities != Quantities::available(b))
        return true;
    const Engine ea(a);
    const Engine eb(b);
    for (const Quantity q : quantities) {
        const Shape shape = ea.shape(q);
        if (!(shape == eb.shape(q)))
            return true;
        if (shape.rows == 0 || shape.cols == 0)
            continue;
        const auto ta = ea.table(q, {0, shape.rows, 0, shape.cols});
        const auto tb = eb.table(q, {0, shape.rows, 0, shape.cols});
        if (std::memcmp(ta->data(), tb->data(), sizeof(float) * std::size_t(ta->size())) != 0)
            return true;
    }
    return false;
}

// Controls that are never disabled because other controls hang on them, at values where they
// happen to change nothing: the evaluation switch when p = 0 drops nothing anyway, and the dropout
// mode when nothing is dropped and no padding row exists for masked-fill to zero.
bool inertButNeverDisabled(const Params &p, const QString &key)
{
    const bool drops = p.training && p.dropout > 0.0;
    const bool padding = p.sequenceLength() < p.maxLen;
    if (key == u"eval"_s)
        return p.dropout == 0.0 && !(p.dropoutMode == DropoutMode::MaskedFill && padding);
    if (key == u"dropout-mode"_s)
        return !drops && !padding;
    for (const TestFamily &family : TestFamilies::all())
        if (family.inert && family.inert(p, key))
            return true;
    return false;
}

} // namespace

class TestParamUse : public QObject
{
    Q_OBJECT

private slots:
    void idleParametersChangeNoCell_data();
    void idleParametersChangeNoCell();
    void documentedCases_data();
    void documentedCases();
    void familyCases_data();
    void familyCases();
    void whatTheSeedDraws();
};

void TestParamUse::idleParametersChangeNoCell_data()
{
    QTest::addColumn<Params>("setting");
    QTest::addColumn<QString>("key");
    for (const auto &[name, setting] : settings()) {
        QVERIFY2(setting.isValid(), qPrintable(name));
        for (const QString &key : keys())
            QTest::newRow(qPrintable(name + u": "_s + key)) << setting << key;
    }
}

void TestParamUse::idleParametersChangeNoCell()
{
    QFETCH(Params, setting);
    QFETCH(QString, key);
    const auto idle = ParamUse::idle(setting, key);
    QList<Params> valid;
    for (const Params &changed : alternatives(setting, key)) {
        if (changed.isValid())
            valid.append(changed);
    }
    if (idle == ParamUse::Idle::SetByMatrix) {
        // The matrix fixes d_model: no other value is valid.
        QVERIFY(valid.isEmpty());
        return;
    }
    QVERIFY2(!valid.isEmpty(), "no valid other value to try");
    if (idle) {
        for (const Params &changed : valid)
            QVERIFY2(!tablesDiffer(setting, changed), "said to be idle, but a cell changed");
        return;
    }
    if (inertButNeverDisabled(setting, key))
        return;
    const bool changes
        = std::any_of(valid.begin(), valid.end(), [&](const Params &c) { return tablesDiffer(setting, c); });
    QVERIFY2(changes, "said to matter, but no other value changed a cell");
}

void TestParamUse::documentedCases_data()
{
    QTest::addColumn<Params>("setting");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("expected"); // an Idle, or -1 for none
    const Params base = small();
    const auto row = [](const char *name, const Params &p, const QString &key, std::optional<ParamUse::Idle> idle) {
        QTest::newRow(name) << p << key << (idle ? static_cast<int>(*idle) : -1);
    };
    using I = ParamUse::Idle;
    const Params evaluation = with(base, u"eval"_s, u"true"_s);
    row("eval: p", evaluation, u"dropout"_s, I::EvaluationMode);
    row("eval: dropout mode stays", evaluation, u"dropout-mode"_s, std::nullopt);
    row("eval: seed draws E", evaluation, u"seed"_s, std::nullopt);
    row("eval, matrix: seed", loaded(evaluation), u"seed"_s, I::NothingRandom);
    row("sum: special", base, u"special"_s, I::NotProtectSpecial);
    row("sum: seq_len", base, u"seq-len"_s, I::NoRowsToResolve);
    row("masked-fill: seq_len", with(base, u"dropout-mode"_s, u"masked-fill"_s), u"seq-len"_s, std::nullopt);
    row("masked-fill eval: seq_len", with(with(base, u"dropout-mode"_s, u"masked-fill"_s), u"eval"_s, u"true"_s),
        u"seq-len"_s, std::nullopt);
    const Params protect = with(base, u"dropout-mode"_s, u"protect-special"_s);
    row("protect-special: special", protect, u"special"_s, std::nullopt);
    row("protect-special: seq_len for -1", protect, u"seq-len"_s, std::nullopt);
    row("protect-special 0,3: seq_len", with(protect, u"special"_s, u"0,3"_s), u"seq-len"_s, I::NoRowsToResolve);
    row("protect-special eval: special", with(protect, u"eval"_s, u"true"_s), u"special"_s, I::EvaluationMode);
    row("protect-special p 0: special", with(protect, u"dropout"_s, u"0"_s), u"special"_s, I::NothingDropped);
    row("sum: pe_dims", base, u"pe-dims"_s, I::NotConcat);
    row("concat: pe_dims", with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, std::nullopt);
    row("sqrt: custom scale", base, kCustomScale, I::NotCustomScale);
    row("normal: custom sigma", base, kCustomSigma, I::NotCustomInit);
    row("matrix: init", loaded(base), u"init"_s, I::EmbeddingsFromFile);
    row("matrix: custom sigma", loaded(with(base, u"init"_s, u"0.5"_s)), kCustomSigma, I::EmbeddingsFromFile);
    row("matrix: d_model", loaded(base), u"d-model"_s, I::SetByMatrix);
    row("matrix: scale matters", loaded(base), u"scale"_s, std::nullopt);
    const Params allPe = with(with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, u"12"_s);
    row("concat k = d: scale", allPe, u"scale"_s, I::NoEmbeddingColumns);
    row("concat k = d: init", allPe, u"init"_s, I::NoEmbeddingColumns);
    const Params noPe = with(with(base, u"compose"_s, u"concat"_s), u"pe-dims"_s, u"0"_s);
    for (const char *key : {"base", "layout", "angles", "freq-shift", "timestep-scale"})
        row(qPrintable(u"concat k 0: "_s + QString::fromLatin1(key)), noPe, QString::fromLatin1(key), I::NoPeColumns);
    for (const char *key : {"max-len", "compose", "dropout-mode", "eval", "base", "layout", "angles", "freq-shift"})
        row(qPrintable(u"defaults: "_s + QString::fromLatin1(key)), base, QString::fromLatin1(key), std::nullopt);
    row("interleaved: flip_sin_to_cos", base, u"flip-sin-to-cos"_s, I::FamilySetting); // split only
    row("split: flip_sin_to_cos", with(base, u"layout"_s, u"split"_s), u"flip-sin-to-cos"_s, std::nullopt);
}

// Each family's rows: idle under any other encoding that does not borrow them, compose and pe-dims
// under a family without a term, and its record's claims (tests/families/<family>/).
void TestParamUse::familyCases_data()
{
    QTest::addColumn<Params>("setting");
    QTest::addColumn<QString>("key");
    QTest::addColumn<int>("expected"); // an Idle, or -1 for none
    using I = ParamUse::Idle;
    for (const auto &[name, p] : settings()) {
        const FamilySpec &spec = Families::spec(p.encoding);
        for (const TestFamily &family : TestFamilies::all()) {
            if (family.encoding == p.encoding)
                continue;
            for (const QString &key : family.rowKeys)
                if (!spec.borrowsRow(family.encoding, key))
                    QTest::newRow(qPrintable(name + u": "_s + key)) << p << key << int(I::OtherEncoding);
        }
        if (!spec.hasPositionTerm())
            for (const QString &key : {u"compose"_s, u"pe-dims"_s})
                QTest::newRow(qPrintable(name + u": "_s + key)) << p << key << int(I::NoPositionTerm);
    }
    for (const TestFamily &family : TestFamilies::all()) {
        QList<TestIdleCase> cases = family.idleCases;
        if (cases.isEmpty() && !TestFamilies::idleSettings(family).isEmpty())
            for (const QString &key : family.rowKeys)
                cases.append({TestFamilies::idleSettings(family).constFirst().first, {}, key, std::nullopt});
        for (const TestIdleCase &c : cases) {
            const Params p = TestFamilies::applied(small(), TestFamilies::setting(family, c.setting) + c.more);
            QString name = c.setting;
            for (const auto &[key, text] : c.more)
                name += u", "_s + key + u" "_s + text;
            QTest::newRow(qPrintable(u"%1 (%2): %3"_s.arg(name, family.word, c.key)))
                << p << c.key << (c.idle ? int(*c.idle) : -1);
        }
    }
}

void TestParamUse::familyCases()
{
    documentedCases();
}

void TestParamUse::documentedCases()
{
    QFETCH(Params, setting);
    QFETCH(QString, key);
    QFETCH(int, expected);
    const auto idle = ParamUse::idle(setting, key);
    QCOMPARE(idle ? static_cast<int>(*idle) : -1, expected);
}

void TestParamUse::whatTheSeedDraws()
{
    Params p = small();
    QVERIFY(ParamUse::drawsEmbeddings(p) && ParamUse::drawsMask(p));
    p.training = false;
    QVERIFY(ParamUse::drawsEmbeddings(p) && !ParamUse::drawsMask(p));
    p.training = true;
    p.dropout = 1.0; // every cell dropped whatever the draw
    QVERIFY(!ParamUse::drawsMask(p));
    p.dropout = 0.0;
    QVERIFY(!ParamUse::drawsMask(p));
    p = loaded(small());
    QVERIFY(!ParamUse::drawsEmbeddings(p) && ParamUse::drawsMask(p));
}

POSENC_TEST_GUILESS_MAIN(TestParamUse)
} // namespace tst_paramuse
#include "tst_paramuse.moc"
