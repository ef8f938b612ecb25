// The parameter table: every row is complete and agrees with itself. A value read from its text
// gives the text back; --help's default is Params{}'s value; an integer's allowed range is the
// range its check enforces, at both ends; a family's row is idle under another encoding; and the
// keys every front end lists (flags, session keys, --help) are the table's, each once.
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"

#include <QSet>
#include <QTest>

using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A valid, non-default text of each text row, to check that set and get agree on it.
QString otherText(const ParamSpec &row)
{
    static const QHash<QString, QString> texts = {
        {u"d-model"_s, u"64"_s},        {u"max-len"_s, u"300"_s},
        {u"encoding"_s, u"none"_s},     {u"base"_s, u"500"_s},
        {u"layout"_s, u"split"_s},      {u"angles"_s, u"float32"_s},
        {u"scale"_s, u"2.5"_s},         {u"init"_s, u"0.3"_s},
        {u"compose"_s, u"concat"_s},    {u"pe-dims"_s, u"8"_s},
        {u"dropout"_s, u"0.25"_s},      {u"dropout-mode"_s, u"embedding"_s},
        {u"special"_s, u"0,3,-2"_s},    {u"seq-len"_s, u"50"_s},
        {u"eval"_s, u"true"_s},         {u"seed"_s, u"18446744073709551615"_s},
        {u"memory-budget"_s, u"0.5"_s}, {u"position-offset"_s, u"2"_s},
    };
    return texts.value(row.key);
}

bool isTextRow(const ParamSpec &row)
{
    return row.isFlag && row.kind != ParamKind::Matrix;
}

} // namespace

class TestParamTable : public QObject
{
    Q_OBJECT

private slots:
    void everyRowIsComplete();
    void keysAreUniqueAndListedOnce();
    void textRoundTripsThroughTheRow_data();
    void textRoundTripsThroughTheRow();
    void helpGivesTheDefaultsOfParams();
    void integerRangesAreTheChecksRanges_data();
    void integerRangesAreTheChecksRanges();
    void familyRowsAreIdleUnderAnotherEncoding();
    void changedKeysNameEachChangedValue();
    void choicesAreTheEnumsWords();
};

void TestParamTable::everyRowIsComplete()
{
    for (const ParamSpec &row : ParamTable::rows()) {
        const QByteArray key = row.key.toUtf8();
        QVERIFY2(!row.key.isEmpty() && !row.label.isEmpty() && !row.objectName.isEmpty(), key);
        QVERIFY2(!row.valueName.isEmpty(), key);
        QVERIFY2(row.value && row.assign && row.parse && row.allowed && row.check && row.idle && row.formula, key);
        QVERIFY2(!row.allowed(Params {}).isEmpty(), key);
        QVERIFY2(!row.formula(Params {}).isEmpty(), key);
        if (row.isFlag)
            QVERIFY2(!row.help.isEmpty(), key);
        else
            QVERIFY2(ParamTable::find(row.parentKey) != nullptr, key); // a custom value names its flag
        if (row.kind == ParamKind::Choice || row.kind == ParamKind::ChoiceOrNumber)
            QVERIFY2(!row.choices.isEmpty(), key);
        if (row.kind == ParamKind::ChoiceOrNumber)
            QVERIFY2(row.assignCustom && !row.customLabel.isEmpty(), key);
        if (row.kind == ParamKind::Integer || row.kind == ParamKind::OptionalInteger)
            QVERIFY2(row.bounds && row.controlMax > row.controlMin, key);
        // Params{} is valid: no row refuses its own default.
        QVERIFY2(!row.check(Params {}), key);
    }
}

void TestParamTable::keysAreUniqueAndListedOnce()
{
    QStringList keys;
    QStringList objectNames; // a custom value's field takes its flag's name (scale, scaleEdit)
    for (const ParamSpec &row : ParamTable::rows()) {
        keys.append(row.key);
        if (row.isFlag)
            objectNames.append(row.objectName);
    }
    QCOMPARE(QSet<QString>(keys.begin(), keys.end()).size(), keys.size());
    QCOMPARE(QSet<QString>(objectNames.begin(), objectNames.end()).size(), objectNames.size());
    // Flags are the rows marked so, in the table's order; ParamText's keys are those with a text.
    QStringList flags;
    QStringList texts;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.isFlag)
            flags.append(row.key);
        if (isTextRow(row))
            texts.append(row.key);
    }
    QCOMPARE(ParamTable::flagKeys(), flags);
    QCOMPARE(ParamText::valueKeys(), texts);
    for (const char *key : {"encoding", "position-table", "position-offset", "embeddings", "tokens"})
        QVERIFY2(flags.contains(QString::fromLatin1(key)), key);
}

void TestParamTable::textRoundTripsThroughTheRow_data()
{
    QTest::addColumn<QString>("key");
    for (const ParamSpec &row : ParamTable::rows()) {
        if (isTextRow(row))
            QTest::newRow(qPrintable(row.key)) << row.key;
    }
}

void TestParamTable::textRoundTripsThroughTheRow()
{
    QFETCH(QString, key);
    const ParamSpec &row = *ParamTable::find(key);
    const QString text = otherText(row);
    QVERIFY2(!text.isEmpty(), "the test has no other value for this row");
    const auto value = row.parse(text);
    QVERIFY(value.has_value());
    Params p;
    row.assign(p, *value);
    QVERIFY2(!(p == Params {}), "the other value changed nothing");
    // The text of the value reads back to the same value, and to the same parameters.
    QVERIFY(row.value(p) == *value);
    const auto again = row.parse(row.text(p));
    QVERIFY(again.has_value());
    QVERIFY(*again == *value);
    Params q;
    row.assign(q, *again);
    QVERIFY(p == q);
}

void TestParamTable::helpGivesTheDefaultsOfParams()
{
    for (const ParamSpec &row : ParamTable::rows()) {
        if (!row.isFlag || !row.helpShowsDefault)
            continue;
        const QString line = row.helpLine();
        QVERIFY2(line.startsWith(row.help), qPrintable(line));
        // The default shown reads back as Params{}'s value.
        const QString shown = line.section(u"(default "_s, -1).chopped(1);
        const auto value = row.parse(shown);
        QVERIFY2(value.has_value(), qPrintable(line));
        Params p;
        row.assign(p, *value);
        QVERIFY2(p == Params {}, qPrintable(u"%1: default '%2' is not Params{}'s"_s.arg(row.key, shown)));
    }
}

void TestParamTable::integerRangesAreTheChecksRanges_data()
{
    QTest::addColumn<QString>("key");
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.kind == ParamKind::Integer && row.isFlag)
            QTest::newRow(qPrintable(row.key)) << row.key;
    }
}

void TestParamTable::integerRangesAreTheChecksRanges()
{
    QFETCH(QString, key);
    const ParamSpec &row = *ParamTable::find(key);
    Params p;
    const auto [lo, hi] = row.bounds(p);
    // The range is written once: the words name the bounds the check enforces.
    QVERIFY2(row.allowed(p).contains(u"[%1, %2]"_s.arg(lo).arg(hi)), qPrintable(row.allowed(p)));
    for (const std::int64_t v : {lo, hi}) {
        Params q = p;
        row.assign(q, ParamValue(v));
        QVERIFY2(!row.check(q), qPrintable(u"%1 refused"_s.arg(v)));
    }
    for (const std::int64_t v : {lo - 1, hi + 1}) {
        Params q = p;
        row.assign(q, ParamValue(v));
        const auto error = row.check(q);
        QVERIFY2(error.has_value(), qPrintable(u"%1 accepted"_s.arg(v)));
        QCOMPARE(error->key, key);
        QCOMPARE(error->allowed, row.allowed(q));
        QCOMPARE(*error->given, QString::number(v));
    }
}

void TestParamTable::familyRowsAreIdleUnderAnotherEncoding()
{
    Params learned;
    learned.encoding = Encoding::Learned;
    Params none;
    none.encoding = Encoding::None;
    for (const char *key : {"base", "layout", "angles"}) {
        const QString k = QString::fromLatin1(key);
        QVERIFY(!ParamUse::idle(Params {}, k));
        QCOMPARE(ParamUse::idle(learned, k), std::optional(IdleReason::Code::OtherEncoding));
        QVERIFY(ParamUse::reason(none, k)->why.contains(u"only encoding sinusoidal reads it"_s));
    }
    for (const char *key : {"position-table", "position-offset"}) {
        const QString k = QString::fromLatin1(key);
        QVERIFY(!ParamUse::idle(learned, k));
        QCOMPARE(ParamUse::idle(Params {}, k), std::optional(IdleReason::Code::OtherEncoding));
    }
    // Without a position term there is nothing to compose with s*E.
    QCOMPARE(ParamUse::idle(none, u"compose"_s), std::optional(IdleReason::Code::NoPositionTerm));
    QCOMPARE(ParamUse::idle(none, u"pe-dims"_s), std::optional(IdleReason::Code::NoPositionTerm));
}

void TestParamTable::changedKeysNameEachChangedValue()
{
    const Params base;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (!isTextRow(row))
            continue;
        Params changed = base;
        row.assign(changed, *row.parse(otherText(row)));
        QCOMPARE(ParamTable::changedKeys(base, changed), QStringList {row.key});
    }
    QVERIFY(ParamTable::changedKeys(base, base).isEmpty());
}

void TestParamTable::choicesAreTheEnumsWords()
{
    QCOMPARE(ParamTable::find(u"encoding"_s)->choices,
             (QStringList {u"sinusoidal"_s, u"learned"_s, u"none"_s, u"rope"_s}));
    Params p;
    for (const auto &[text, encoding] :
         {std::pair {u"sinusoidal"_s, Encoding::Sinusoidal}, std::pair {u"learned"_s, Encoding::Learned},
          std::pair {u"none"_s, Encoding::None}, std::pair {u"rope"_s, Encoding::Rope}}) {
        QVERIFY(!ParamText::set(p, u"encoding"_s, text));
        QCOMPARE(p.encoding, encoding);
        QCOMPARE(ParamText::toString(encoding), text);
    }
    const auto error = ParamText::set(p, u"encoding"_s, u"rope-ish"_s);
    QVERIFY(error.has_value());
    QCOMPARE(error->allowed, u"one of sinusoidal, learned, none, rope"_s);
}

QTEST_GUILESS_MAIN(TestParamTable)
#include "tst_paramtable.moc"
