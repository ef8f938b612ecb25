// The family a command means when it names none (FamilyInference): a family's parameter, a
// quantity or any clue fitting one family chooses it; the encoding given stays where every clue
// fits it; several families or none leave the choice open, with the families that fit. The
// families and what belongs to each are read from the tables, so these expectations are written
// out here by hand: a row or quantity moved to another family fails them.
#include "core/FamilyInference.h"
#include "core/ParamTable.h"

#include <QTest>

#include <optional>

using namespace Qt::StringLiterals;
using namespace posenc;

Q_DECLARE_METATYPE(posenc::Encoding)
Q_DECLARE_METATYPE(posenc::Quantity)
Q_DECLARE_METATYPE(QList<posenc::Encoding>)
Q_DECLARE_METATYPE(QList<QList<posenc::Encoding>>)
Q_DECLARE_METATYPE(std::optional<posenc::Encoding>)

namespace {

using Families = QList<Encoding>;

const Families kAll {Encoding::Sinusoidal, Encoding::Learned, Encoding::None,    Encoding::Rope,
                     Encoding::Alibi,      Encoding::T5,      Encoding::Deberta, Encoding::Sandwich,
                     Encoding::Mrope,      Encoding::Rope2d,  Encoding::Sincos2d};

FamilyInference::Clue onlyFor(const Families &families)
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
    QCOMPARE(FamilyInference::families(), kAll);
    QStringList words;
    for (const Encoding family : FamilyInference::families())
        words.append(FamilyInference::word(family));
    QCOMPARE(words, ParamTable::find(u"encoding"_s)->choices);
}

void TestFamilyInference::parameterBelongsToItsFamily_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<Families>("families"); // empty: every family reads it, no clue
    QTest::newRow("d-model") << u"d-model"_s << Families();
    QTest::newRow("max-len") << u"max-len"_s << Families();
    QTest::newRow("dropout") << u"dropout"_s << Families();
    QTest::newRow("compose: idle without a term, not another family's") << u"compose"_s << Families();
    QTest::newRow("base") << u"base"_s << Families {Encoding::Sinusoidal};
    QTest::newRow("layout") << u"layout"_s << Families {Encoding::Sinusoidal};
    QTest::newRow("position-table") << u"position-table"_s << Families {Encoding::Learned};
    QTest::newRow("position-offset") << u"position-offset"_s << Families {Encoding::Learned};
    // RoPE's rows that multimodal and 2-D RoPE read too (FamilySpec::borrows).
    QTest::newRow("rope-theta") << u"rope-theta"_s << Families {Encoding::Rope, Encoding::Mrope, Encoding::Rope2d};
    QTest::newRow("rope-factor: idle under the default type too")
        << u"rope-factor"_s << Families {Encoding::Rope, Encoding::Mrope};
    QTest::newRow("heads") << u"heads"_s << Families {Encoding::Alibi};
    QTest::newRow("t5-causal") << u"t5-causal"_s << Families {Encoding::T5};
    QTest::newRow("deberta-buckets") << u"deberta-buckets"_s << Families {Encoding::Deberta};
    QTest::newRow("sandwich-head-dim") << u"sandwich-head-dim"_s << Families {Encoding::Sandwich};
    QTest::newRow("not a parameter") << u"no-such-key"_s << Families();
}

void TestFamilyInference::parameterBelongsToItsFamily()
{
    QFETCH(QString, key);
    QFETCH(Families, families);
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
    QTest::addColumn<Families>("families");
    QTest::newRow("pe: the families with a position term")
        << Quantity::Pe << Families {Encoding::Sinusoidal, Encoding::Learned, Encoding::Sincos2d};
    QTest::newRow("input: every family") << Quantity::Input << kAll;
    QTest::newRow("error") << Quantity::Error << Families {Encoding::Sinusoidal};
    QTest::newRow("rope-cos") << Quantity::RopeCos << Families {Encoding::Rope};
    QTest::newRow("alibi-slopes") << Quantity::AlibiSlopes << Families {Encoding::Alibi};
    QTest::newRow("t5-bucket") << Quantity::T5Bucket << Families {Encoding::T5};
    QTest::newRow("deberta-bucket") << Quantity::DebertaBucket << Families {Encoding::Deberta};
}

void TestFamilyInference::quantityBelongsToItsFamilies()
{
    QFETCH(Quantity, quantity);
    QFETCH(Families, families);
    QCOMPARE(FamilyInference::familiesOf(FamilyInference::quantityClue(quantity, u"q"_s), Params()), families);
}

void TestFamilyInference::infer_data()
{
    QTest::addColumn<Encoding>("current");
    QTest::addColumn<QList<Families>>("clues");
    QTest::addColumn<std::optional<Encoding>>("family");
    QTest::addColumn<Families>("candidates");
    const auto one = [](Encoding e) { return std::optional<Encoding>(e); };
    QTest::newRow("no clue keeps the encoding")
        << Encoding::Sinusoidal << QList<Families>() << one(Encoding::Sinusoidal) << Families();
    QTest::newRow("a clue that fits keeps it")
        << Encoding::Sinusoidal << QList<Families> {{Encoding::Sinusoidal, Encoding::Learned}}
        << one(Encoding::Sinusoidal) << Families();
    QTest::newRow("one family fits: it is chosen")
        << Encoding::Sinusoidal << QList<Families> {{Encoding::Alibi}} << one(Encoding::Alibi) << Families();
    QTest::newRow("two clues meet in one family")
        << Encoding::Sinusoidal << QList<Families> {{Encoding::T5, Encoding::Deberta}, {Encoding::T5}}
        << one(Encoding::T5) << Families();
    QTest::newRow("the encoding given stays where it fits")
        << Encoding::Deberta << QList<Families> {{Encoding::T5, Encoding::Deberta}} << one(Encoding::Deberta)
        << Families();
    QTest::newRow("two families fit: a choice")
        << Encoding::Sinusoidal << QList<Families> {{Encoding::T5, Encoding::Deberta}} << std::optional<Encoding>()
        << Families {Encoding::T5, Encoding::Deberta};
    QTest::newRow("no family fits every clue")
        << Encoding::Sinusoidal << QList<Families> {{Encoding::Rope}, {Encoding::Sinusoidal, Encoding::Learned}}
        << std::optional<Encoding>() << Families();
}

void TestFamilyInference::infer()
{
    QFETCH(Encoding, current);
    QFETCH(QList<Families>, clues);
    QFETCH(std::optional<Encoding>, family);
    QFETCH(Families, candidates);
    Params params;
    params.encoding = current;
    QList<FamilyInference::Clue> given;
    for (const Families &fits : clues)
        given.append(onlyFor(fits));
    const FamilyInference::Outcome outcome = FamilyInference::infer(params, given);
    QCOMPARE(outcome.family, family);
    QCOMPARE(outcome.candidates, candidates);
}

QTEST_GUILESS_MAIN(TestFamilyInference)
#include "tst_familyinference.moc"
