// The family a command means when it names none (FamilyInference): a family's parameter, a
// quantity or any clue fitting one family chooses it; the encoding given stays where every clue
// fits it; several families or none leave the choice open, with the families that fit. The
// families and what belongs to each are read from the tables, so these expectations are written
// out here by hand: a row or quantity moved to another family fails them.
#include "core/FamilyInference.h"
#include "core/ParamTable.h"
#include "support/TestFamily.h"
#include "support/TestMain.h"

#include <QTest>

#include <optional>

namespace tst_familyinference {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

using Encodings = QList<Encoding>;

// Every family, in the list's order: the test records' (tests/families/<family>/).
Encodings everyFamily()
{
    Encodings all;
    for (const TestFamily &family : TestFamilies::all())
        all.append(family.encoding);
    return all;
}

FamilyInference::Clue onlyFor(const Encodings &families)
{
    return {u"a clue"_s, [families](const Params &params) { return families.contains(params.encoding); }};
}

} // namespace

class TestFamilyInference : public QObject
{
    Q_OBJECT

private slots:
    void familiesAreTheEncodingRowsWords();
    void parameterBelongsToItsFamily_data();
    void parameterBelongsToItsFamily();
    void quantityBelongsToItsFamilies_data();
    void quantityBelongsToItsFamilies();
    void infer_data();
    void infer();
};

void TestFamilyInference::familiesAreTheEncodingRowsWords()
{
    QCOMPARE(FamilyInference::families(), everyFamily());
    QStringList words;
    for (const Encoding family : FamilyInference::families())
        words.append(FamilyInference::word(family));
    QCOMPARE(words, ParamTable::find(u"encoding"_s)->choices);
}

void TestFamilyInference::parameterBelongsToItsFamily_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<Encodings>("families"); // empty: every family reads it, no clue
    QTest::newRow("d-model") << u"d-model"_s << Encodings();
    QTest::newRow("max-len") << u"max-len"_s << Encodings();
    QTest::newRow("dropout") << u"dropout"_s << Encodings();
    QTest::newRow("compose: idle without a term, not another family's") << u"compose"_s << Encodings();
    QTest::newRow("base") << u"base"_s << Encodings {Encoding::Sinusoidal};
    QTest::newRow("layout") << u"layout"_s << Encodings {Encoding::Sinusoidal};
    QTest::newRow("position-table") << u"position-table"_s << Encodings {Encoding::Learned};
    QTest::newRow("position-offset") << u"position-offset"_s << Encodings {Encoding::Learned};
    // RoPE's rows that multimodal and 2-D RoPE read too (FamilySpec::borrows).
    QTest::newRow("rope-theta") << u"rope-theta"_s << Encodings {Encoding::Rope, Encoding::Mrope, Encoding::Rope2d};
    QTest::newRow("rope-factor: idle under the default type too")
        << u"rope-factor"_s << Encodings {Encoding::Rope, Encoding::Mrope};
    QTest::newRow("heads") << u"heads"_s << Encodings {Encoding::Alibi};
    QTest::newRow("t5-causal") << u"t5-causal"_s << Encodings {Encoding::T5};
    QTest::newRow("deberta-buckets") << u"deberta-buckets"_s << Encodings {Encoding::Deberta};
    QTest::newRow("sandwich-head-dim") << u"sandwich-head-dim"_s << Encodings {Encoding::Sandwich};
    QTest::newRow("not a parameter") << u"no-such-key"_s << Encodings();
}

void TestFamilyInference::parameterBelongsToItsFamily()
{
    QFETCH(QString, key);
    QFETCH(Encodings, families);
    const auto clue = FamilyInference::parameterClue(key, u"--"_s + key);
    QCOMPARE(clue.has_value(), !families.isEmpty());
    if (clue) {
        QCOMPARE(clue->what, u"--"_s + key);
        QCOMPARE(FamilyInference::familiesOf(*clue, Params()), families);
    }
}

void TestFamilyInference::quantityBelongsToItsFamilies_data()
{
    QTest::addColumn<Quantity>("quantity");
    QTest::addColumn<Encodings>("families");
    QTest::newRow("pe: the families with a position term")
        << Quantity::Pe << Encodings {Encoding::Sinusoidal, Encoding::Learned, Encoding::Sincos2d};
    QTest::newRow("input: every family") << Quantity::Input << everyFamily();
    QTest::newRow("error") << Quantity::Error << Encodings {Encoding::Sinusoidal, Encoding::Rope};
    QTest::newRow("rope-cos") << Quantity::RopeCos << Encodings {Encoding::Rope};
    QTest::newRow("alibi-slopes") << Quantity::AlibiSlopes << Encodings {Encoding::Alibi};
    QTest::newRow("t5-bucket") << Quantity::T5Bucket << Encodings {Encoding::T5};
    QTest::newRow("deberta-bucket") << Quantity::DebertaBucket << Encodings {Encoding::Deberta};
}

void TestFamilyInference::quantityBelongsToItsFamilies()
{
    QFETCH(Quantity, quantity);
    QFETCH(Encodings, families);
    QCOMPARE(FamilyInference::familiesOf(FamilyInference::quantityClue(quantity, u"q"_s), Params()), families);
}

void TestFamilyInference::infer_data()
{
    QTest::addColumn<Encoding>("current");
    QTest::addColumn<QList<Encodings>>("clues");
    QTest::addColumn<std::optional<Encoding>>("family");
    QTest::addColumn<Encodings>("candidates");
    const auto one = [](Encoding e) { return std::optional<Encoding>(e); };
    QTest::newRow("no clue keeps the encoding")
        << Encoding::Sinusoidal << QList<Encodings>() << one(Encoding::Sinusoidal) << Encodings();
    QTest::newRow("a clue that fits keeps it")
        << Encoding::Sinusoidal << QList<Encodings> {{Encoding::Sinusoidal, Encoding::Learned}}
        << one(Encoding::Sinusoidal) << Encodings();
    QTest::newRow("one family fits: it is chosen")
        << Encoding::Sinusoidal << QList<Encodings> {{Encoding::Alibi}} << one(Encoding::Alibi) << Encodings();
    QTest::newRow("two clues meet in one family")
        << Encoding::Sinusoidal << QList<Encodings> {{Encoding::T5, Encoding::Deberta}, {Encoding::T5}}
        << one(Encoding::T5) << Encodings();
    QTest::newRow("the encoding given stays where it fits")
        << Encoding::Deberta << QList<Encodings> {{Encoding::T5, Encoding::Deberta}} << one(Encoding::Deberta)
        << Encodings();
    QTest::newRow("two families fit: a choice")
        << Encoding::Sinusoidal << QList<Encodings> {{Encoding::T5, Encoding::Deberta}} << std::optional<Encoding>()
        << Encodings {Encoding::T5, Encoding::Deberta};
    QTest::newRow("no family fits every clue")
        << Encoding::Sinusoidal << QList<Encodings> {{Encoding::Rope}, {Encoding::Sinusoidal, Encoding::Learned}}
        << std::optional<Encoding>() << Encodings();
}

void TestFamilyInference::infer()
{
    QFETCH(Encoding, current);
    QFETCH(QList<Encodings>, clues);
    QFETCH(std::optional<Encoding>, family);
    QFETCH(Encodings, candidates);
    Params params;
    params.encoding = current;
    QList<FamilyInference::Clue> given;
    for (const Encodings &fits : clues)
        given.append(onlyFor(fits));
    const FamilyInference::Outcome outcome = FamilyInference::infer(params, given);
    QCOMPARE(outcome.family, family);
    QCOMPARE(outcome.candidates, candidates);
}

POSENC_TEST_GUILESS_MAIN(TestFamilyInference)
} // namespace tst_familyinference
#include "tst_familyinference.moc"
