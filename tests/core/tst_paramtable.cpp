// The parameter table: every row is complete and agrees with itself. A value read from its text
// gives the text back; --help's default is Params{}'s value; an integer's allowed range is the
// range its check enforces, at both ends; a family's row is idle under another encoding; and the
// keys every front end lists (flags, session keys, --help) are the table's, each once.
#include "core/FamilySpec.h"
#include "core/ParamTable.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"
#include "support/TestMain.h"

#include "support/TestFamily.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace tst_paramtable {
using namespace posenc;
using namespace Qt::StringLiterals;

namespace {

// A valid, non-default text of each text row, to check that set and get agree on it: a family's
// row its record's (tests/families/<family>/), the shared rows' here.
QString otherText(const ParamSpec &row)
{
    for (const TestFamily &family : TestFamilies::all()) {
        if (!family.rowKeys.contains(row.key))
            continue;
        for (const TestSetting &texts : {family.readBack, family.changes})
            for (const auto &[key, text] : texts)
                if (key == row.key)
                    return text;
    }
    static const QHash<QString, QString> texts = {
        {u"d-model"_s, u"64"_s},
        {u"max-len"_s, u"300"_s},
        {u"encoding"_s, u"none"_s},
        {u"scale"_s, u"2.5"_s},
        {u"init"_s, u"0.3"_s},
        {u"compose"_s, u"concat"_s},
        {u"pe-dims"_s, u"8"_s},
        {u"dropout"_s, u"0.25"_s},
        {u"dropout-mode"_s, u"embedding"_s},
        {u"special"_s, u"0,3,-2"_s},
        {u"seq-len"_s, u"50"_s},
        {u"eval"_s, u"true"_s},
        {u"seed"_s, u"18446744073709551615"_s},
        {u"memory-budget"_s, u"0.5"_s},
        {u"batch"_s, u"right:3,2"_s},
        {u"packed"_s, u"3,4,2/5"_s},
        {u"cache"_s, u"4"_s},
        {u"ids-choice"_s, u"cache-offset"_s},
        {u"attention"_s, u"both-ways"_s},
        {u"positions-added"_s, u"by-column"_s},
        {u"attn-scale"_s, u"0.1"_s},
        {u"floor-scale"_s, u"4096"_s},
        {u"attention-chunk"_s, u"8192"_s},
        {u"sliding-window"_s, u"4096"_s},
    };
    return texts.value(row.key);
}

// The families' folders in the order of FamilyList.h's lines, read from the source.
QStringList listedFolders()
{
    QFile list(QStringLiteral(POSENC_SOURCE_DIR "/src/core/FamilyList.h"));
    if (!list.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(list.fileName()));
    QStringList folders;
    static const QRegularExpression line(uR"(^#include "core/(\w+)/\w+Family\.inc"$)"_s,
                                         QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch &m : line.globalMatch(QString::fromUtf8(list.readAll())))
        folders.append(m.captured(1));
    return folders;
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
    void familyRangesFollowTheKeysTheyDependOn_data();
    void familyRangesFollowTheKeysTheyDependOn();
    void changedKeysNameEachChangedValue();
    void choicesAreTheEnumsWords();
    void ropeRowsAreIdleUnderATypeThatDoesNotReadThem_data();
    void ropeRowsAreIdleUnderATypeThatDoesNotReadThem();
    void optionalNumbersReadUnset_data();
    void optionalNumbersReadUnset();
    void numberListsKeepEveryDigit_data();
    void numberListsKeepEveryDigit();
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
    Params rope;
    rope.encoding = Encoding::Rope;
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.family != Encoding::Rope)
            continue;
        for (const Params &other : {Params {}, learned, none}) {
            QCOMPARE(ParamUse::idle(other, row.key), std::optional(IdleReason::Code::OtherEncoding));
            QVERIFY(ParamUse::reason(other, row.key)->why.contains(u"only encoding rope reads it"_s));
        }
    }
    for (const char *key : {"head-dim", "rope-theta", "partial-rotary-factor", "rope-layout", "rope-type"})
        QVERIFY(!ParamUse::idle(rope, QString::fromLatin1(key)));
    // The place of the rotary columns matters only where some pass through.
    QCOMPARE(ParamUse::idle(rope, u"rotary-place"_s), std::optional(IdleReason::Code::FamilySetting));
    Params partial = rope;
    partial.rope.partialRotaryFactor = 0.5;
    QVERIFY(!ParamUse::idle(partial, u"rotary-place"_s));
    // Every family's rows: idle under any other encoding but one that borrows them, naming the
    // family; a bias on the scores reads each of its rows at its defaults.
    QList<Params> everyFamily;
    for (const QString &word : ParamTable::find(u"encoding"_s)->choices) {
        Params p;
        QVERIFY(!ParamText::set(p, u"encoding"_s, word));
        everyFamily.append(p);
    }
    QCOMPARE(everyFamily.size(), Families::all().size());
    for (const TestFamily &family : TestFamilies::all()) {
        const bool bias = Families::spec(family.encoding).kind == FamilyKind::ScoreBias;
        for (const QString &key : family.rowKeys) {
            for (const Params &other : everyFamily) {
                if (other.encoding == family.encoding) {
                    if (bias)
                        QVERIFY2(!ParamUse::idle(other, key), qPrintable(key));
                    continue;
                }
                if (Families::spec(other.encoding).borrowsRow(family.encoding, key))
                    continue;
                QCOMPARE(ParamUse::idle(other, key), std::optional(IdleReason::Code::OtherEncoding));
                const QString why = ParamUse::reason(other, key)->why;
                QVERIFY2(why.contains(u"only encoding %1 reads it"_s.arg(family.word)), qPrintable(why));
            }
        }
    }
    QCOMPARE(ParamTable::find(u"heads"_s)->group, ParamGroup::Family);
    QCOMPARE(ParamTable::find(u"heads"_s)->family, std::optional(Encoding::Alibi));
    QCOMPARE(ParamTable::find(u"t5-causal"_s)->family, std::optional(Encoding::T5));
    QCOMPARE(ParamTable::find(u"deberta-max-position"_s)->family, std::optional(Encoding::Deberta));
    QVERIFY(!ParamTable::find(u"d-model"_s)->family);
    // Without a position term there is nothing to compose with s*E.
    for (const Params &p : everyFamily) {
        if (p.hasPositionTerm())
            continue;
        QCOMPARE(ParamUse::idle(p, u"compose"_s), std::optional(IdleReason::Code::NoPositionTerm));
        QCOMPARE(ParamUse::idle(p, u"pe-dims"_s), std::optional(IdleReason::Code::NoPositionTerm));
    }
    for (const Params &p : {none, rope}) {
        QCOMPARE(ParamUse::idle(p, u"compose"_s), std::optional(IdleReason::Code::NoPositionTerm));
        QCOMPARE(ParamUse::idle(p, u"pe-dims"_s), std::optional(IdleReason::Code::NoPositionTerm));
    }
}

// ALiBi's head, T5's and DeBERTa's spans are ranged by another key: the range in words is the live
// one, and the check refuses what the reference cannot compute (an odd bidirectional T5 count, a
// max distance within the exact buckets, a log span of ln(1) or less).
void TestParamTable::familyRangesFollowTheKeysTheyDependOn_data()
{
    QTest::addColumn<QStringList>("values"); // key=text, set in order
    QTest::addColumn<QString>("refused"); // the key refused, or empty when valid
    QTest::addColumn<QString>("allowed"); // what its error's range says
    QTest::addColumn<QString>("problem"); // a part of its problem beyond the range
    QTest::newRow("head 12 of 12") << QStringList {u"heads=12"_s, u"head=12"_s} << QString() << QString() << QString();
    QTest::newRow("head 13 of 12") << QStringList {u"heads=12"_s, u"head=13"_s} << u"head"_s
                                   << u"an integer in [1, 12] (heads)"_s << QString();
    QTest::newRow("head 0") << QStringList {u"head=0"_s} << u"head"_s << u"an integer in [1, 8] (heads)"_s << QString();
    QTest::newRow("no heads") << QStringList {u"heads=0"_s, u"head=1"_s} << u"heads"_s << u"an integer in [1, 4096]"_s
                              << QString();
    QTest::newRow("4097 heads") << QStringList {u"heads=4097"_s} << u"heads"_s << u"an integer in [1, 4096]"_s
                                << QString();
    QTest::newRow("odd bidirectional T5") << QStringList {u"t5-buckets=33"_s} << u"t5-buckets"_s
                                          << u"an even integer in [4, 65536] (bidirectional)"_s << u"is odd"_s;
    QTest::newRow("odd causal T5") << QStringList {u"t5-causal=true"_s, u"t5-buckets=33"_s} << QString() << QString()
                                   << QString();
    QTest::newRow("2 causal T5 buckets") << QStringList {u"t5-causal=true"_s, u"t5-buckets=2"_s} << QString()
                                         << QString() << QString();
    QTest::newRow("2 bidirectional T5 buckets") << QStringList {u"t5-buckets=2"_s} << u"t5-buckets"_s
                                                << u"an even integer in [4, 65536] (bidirectional)"_s << QString();
    QTest::newRow("T5 max distance 16 of 32")
        << QStringList {u"t5-max-distance=16"_s} << u"t5-max-distance"_s
        << u"an integer in [17, 16777216] (more than t5-buckets / 2 = 16"_s << QString();
    QTest::newRow("T5 max distance 17 of 32")
        << QStringList {u"t5-max-distance=17"_s} << QString() << QString() << QString();
    QTest::newRow("T5 max distance 32 of 64") << QStringList {u"t5-buckets=64"_s, u"t5-max-distance=32"_s}
                                              << u"t5-max-distance"_s << u"an integer in [33, 16777216]"_s << QString();
    QTest::newRow("odd DeBERTa") << QStringList {u"deberta-buckets=255"_s} << u"deberta-buckets"_s
                                 << u"an even integer in [2, 65536]"_s << u"is odd"_s;
    QTest::newRow("DeBERTa max position 129 of 256")
        << QStringList {u"deberta-max-position=129"_s} << u"deberta-max-position"_s
        << u"an integer in [130, 16777216] (more than deberta-buckets / 2 "
           "+ 1 = 129"_s
        << QString();
    QTest::newRow("DeBERTa max position 130 of 256")
        << QStringList {u"deberta-max-position=130"_s} << QString() << QString() << QString();
}

void TestParamTable::familyRangesFollowTheKeysTheyDependOn()
{
    QFETCH(QStringList, values);
    QFETCH(QString, refused);
    QFETCH(QString, allowed);
    QFETCH(QString, problem);
    Params p;
    for (const QString &pair : values)
        QVERIFY(!ParamText::set(p, pair.section(u'=', 0, 0), pair.section(u'=', 1)));
    const QList<ParamError> errors = p.validate();
    if (refused.isEmpty()) {
        QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).sentence()));
        return;
    }
    QVERIFY(!errors.isEmpty());
    const ParamError &error = errors.first();
    QCOMPARE(error.key, refused);
    QVERIFY2(error.allowed.startsWith(allowed), qPrintable(error.allowed));
    QVERIFY2(error.problem.contains(problem), qPrintable(error.problem));
    // The row words the same range as its check.
    QCOMPARE(ParamTable::find(refused)->allowed(p), error.allowed);
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
    // The families in the order of FamilyList.h's lines, a family added at their end after them;
    // each word its folder's name (core/<folder>/ there, tests/families/<folder>/ for its record,
    // which registers the Encoding value of that name).
    const QStringList choices = ParamTable::find(u"encoding"_s)->choices;
    QStringList words, folders;
    for (const TestFamily &family : TestFamilies::all()) {
        words.append(family.word);
        folders.append(family.folder);
        QCOMPARE(QString(family.word).remove(u'-'), family.folder);
    }
    QCOMPARE(choices, words);
    QCOMPARE(folders, listedFolders());
    QCOMPARE(choices.mid(0, 11),
             (QStringList {u"sinusoidal"_s, u"learned"_s, u"none"_s, u"rope"_s, u"alibi"_s, u"t5"_s, u"deberta"_s,
                           u"sandwich"_s, u"mrope"_s, u"rope-2d"_s, u"sincos-2d"_s}));
    Params p;
    for (const TestFamily &family : TestFamilies::all()) {
        QVERIFY(!ParamText::set(p, u"encoding"_s, family.word));
        QCOMPARE(p.encoding, family.encoding);
        QCOMPARE(ParamText::toString(family.encoding), family.word);
    }
    const auto error = ParamText::set(p, u"encoding"_s, u"rope-ish"_s);
    QVERIFY(error.has_value());
    QCOMPARE(error->allowed, u"one of "_s + words.join(u", "_s));
    QCOMPARE(ParamTable::find(u"alibi"_s)->choices, (QStringList {u"causal"_s, u"symmetric"_s}));
    QVERIFY(!ParamText::set(p, u"alibi"_s, u"symmetric"_s));
    QCOMPARE(p.alibi.mask, AlibiMask::Symmetric);
    QVERIFY(!ParamText::set(p, u"alibi"_s, u"causal"_s));
    QCOMPARE(p.alibi.mask, AlibiMask::Causal);
    QCOMPARE(ParamText::set(p, u"alibi"_s, u"bidirectional"_s)->allowed, u"one of causal, symmetric"_s);

    // rope-type's words are HF's rope_type values, in the order of RopeType.
    const QStringList types
        = {u"default"_s, u"linear"_s, u"dynamic"_s, u"yarn"_s, u"longrope"_s, u"llama3"_s, u"proportional"_s};
    QCOMPARE(ParamTable::find(u"rope-type"_s)->choices, types);
    for (int i = 0; i < types.size(); ++i) {
        QVERIFY(!ParamText::set(p, u"rope-type"_s, types[i]));
        QCOMPARE(p.rope.type, static_cast<RopeType>(i));
    }
    const auto unknown = ParamText::set(p, u"rope-type"_s, u"ntk"_s);
    QVERIFY(unknown.has_value());
    QCOMPARE(unknown->allowed, u"one of default, linear, dynamic, yarn, longrope, llama3, proportional"_s);
    QCOMPARE(ParamTable::find(u"rope-layout"_s)->choices, (QStringList {u"half"_s, u"interleaved"_s}));
    QVERIFY(!ParamText::set(p, u"rope-layout"_s, u"interleaved"_s));
    QCOMPARE(p.rope.layout, RopeLayout::Interleaved);
}

// The rope-types that read each RoPE parameter (HF transformers' modeling_rope_utils.py); the
// others leave it idle with the type named.
void TestParamTable::ropeRowsAreIdleUnderATypeThatDoesNotReadThem_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QStringList>("readers");
    const QStringList all = ParamTable::find(u"rope-type"_s)->choices;
    for (const char *key : {"head-dim", "rope-theta", "partial-rotary-factor", "rope-layout", "rope-type"})
        QTest::newRow(key) << QString::fromLatin1(key) << all;
    // Proportional turns every column (its partial pairs at frequency 0): none passes through.
    QStringList placed = all;
    placed.removeAll(u"proportional"_s);
    QTest::newRow("rotary-place") << u"rotary-place"_s << placed;
    QTest::newRow("rope-factor") << u"rope-factor"_s << QStringList {u"linear"_s,   u"dynamic"_s, u"yarn"_s,
                                                                     u"longrope"_s, u"llama3"_s,  u"proportional"_s};
    QTest::newRow("original-max-len") << u"original-max-len"_s
                                      << QStringList {u"dynamic"_s, u"yarn"_s, u"longrope"_s, u"llama3"_s};
    for (const char *key : {"low-freq-factor", "high-freq-factor"})
        QTest::newRow(key) << QString::fromLatin1(key) << QStringList {u"llama3"_s};
    for (const char *key : {"beta-fast", "beta-slow", "yarn-truncate", "mscale", "mscale-all-dim"})
        QTest::newRow(key) << QString::fromLatin1(key) << QStringList {u"yarn"_s};
    QTest::newRow("attention-factor") << u"attention-factor"_s << QStringList {u"yarn"_s, u"longrope"_s};
    QTest::newRow("short-factor") << u"short-factor"_s << QStringList {u"longrope"_s};
    QTest::newRow("long-factor") << u"long-factor"_s << QStringList {u"longrope"_s};
}

void TestParamTable::ropeRowsAreIdleUnderATypeThatDoesNotReadThem()
{
    QFETCH(QString, key);
    QFETCH(QStringList, readers);
    // Settings where nothing but the type can leave a parameter idle: mscale beside an
    // mscale-all-dim, max_len past the original length for the long factors, and within it for
    // the short ones.
    Params p;
    p.encoding = Encoding::Rope;
    p.rope.mscaleAllDim = 1.0;
    p.rope.originalMaxLen = key == u"short-factor"_s ? p.maxLen : p.maxLen / 2;
    if (key == u"rotary-place"_s)
        p.rope.partialRotaryFactor = 0.5; // read only where some columns pass through
    for (const QString &type : ParamTable::find(u"rope-type"_s)->choices) {
        QVERIFY(!ParamText::set(p, u"rope-type"_s, type));
        const auto why = ParamUse::reason(p, key);
        if (readers.contains(type)) {
            QVERIFY2(!why, qPrintable(type + u": "_s + (why ? why->why : QString())));
        } else if (key == u"rotary-place"_s) {
            QVERIFY2(why && why->code == IdleReason::Code::FamilySetting, qPrintable(type));
            QVERIFY2(why->why.contains(u"every column of the head turns"_s), qPrintable(why->why));
        } else {
            QVERIFY2(why && why->code == IdleReason::Code::OtherRopeType, qPrintable(type));
            QVERIFY2(why->why.contains(u"rope-type %1 does not read it"_s.arg(type)), qPrintable(why->why));
        }
    }
}

// An optional number: "unset" or an empty text leaves it out, as a config that has no such key.
void TestParamTable::optionalNumbersReadUnset_data()
{
    QTest::addColumn<QString>("key");
    for (const ParamSpec &row : ParamTable::rows()) {
        if (row.kind == ParamKind::OptionalNumber)
            QTest::newRow(qPrintable(row.key)) << row.key;
    }
    QTest::newRow("original-max-len") << u"original-max-len"_s;
}

void TestParamTable::optionalNumbersReadUnset()
{
    QFETCH(QString, key);
    const ParamSpec &row = *ParamTable::find(key);
    QCOMPARE(row.text(Params {}), u"unset"_s);
    QVERIFY(row.helpLine().endsWith(u"(default unset)"_s));
    for (const QString &text : {u"unset"_s, u""_s, u"  unset "_s}) {
        Params p;
        QVERIFY(!ParamText::set(p, key, u"2"_s));
        QVERIFY(!(p == Params {}));
        QVERIFY2(!ParamText::set(p, key, text), qPrintable(text));
        QVERIFY(p == Params {});
    }
    Params p;
    QVERIFY(ParamText::set(p, key, u"auto"_s).has_value());
    QVERIFY(ParamText::set(p, key, u"1x"_s).has_value());
    QVERIFY(p == Params {});
}

void TestParamTable::numberListsKeepEveryDigit_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("count");
    QTest::newRow("one") << u"2"_s << true << 1;
    QTest::newRow("Phi-3's digits") << u"1.0700000524520874,1.1200000047683716,64.76000213623047"_s << true << 3;
    QTest::newRow("0.1 + 0.2") << u"0.30000000000000004"_s << true << 1;
    QTest::newRow("spaces") << u" 1 , 2.5 "_s << true << 2;
    QTest::newRow("none") << u"none"_s << true << 0;
    QTest::newRow("empty") << u""_s << true << 0;
    QTest::newRow("zero") << u"1,0"_s << false << 0;
    QTest::newRow("negative") << u"-1"_s << false << 0;
    QTest::newRow("nan") << u"1,nan"_s << false << 0;
    QTest::newRow("inf") << u"inf"_s << false << 0;
    QTest::newRow("empty item") << u"1,,2"_s << false << 0;
    QTest::newRow("trailing comma") << u"1,2,"_s << false << 0;
    QTest::newRow("word") << u"1,x"_s << false << 0;
    QTest::newRow("more than 32768") << QStringList(32769, u"1"_s).join(u',') << false << 0;
}

void TestParamTable::numberListsKeepEveryDigit()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(int, count);
    for (const QString &key : {u"short-factor"_s, u"long-factor"_s}) {
        Params p;
        const auto error = ParamText::set(p, key, text);
        QCOMPARE(!error, valid);
        if (!valid) {
            QCOMPARE(error->key, key);
            QVERIFY2(error->allowed.contains(u"numbers in [0.001, 1000000]"_s), qPrintable(error->sentence()));
            QVERIFY(p == Params {});
            continue;
        }
        const std::vector<double> &list = key == u"short-factor"_s ? p.rope.shortFactor : p.rope.longFactor;
        QCOMPARE(int(list.size()), count);
        // The text written reads back to the same doubles, bit for bit.
        const QString written = ParamText::get(p, key);
        Params again;
        QVERIFY(!ParamText::set(again, key, written));
        QVERIFY(again == p);
        if (count == 0)
            QCOMPARE(written, u"none"_s);
        else if (!text.contains(u' '))
            QCOMPARE(written, text);
    }
}

POSENC_TEST_GUILESS_MAIN(TestParamTable)
} // namespace tst_paramtable
#include "tst_paramtable.moc"
