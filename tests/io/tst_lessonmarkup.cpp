// What a lesson's explanation may hold (io/LessonMarkup.h): the markup of the shipped lessons and
// nothing that loads a resource or lays out without bound. The audit: "<img src=/dev/zero>" read
// the device without end, then aborted on bad_alloc; 20 nested <table>s froze the window past
// 60 s and 5,000 crashed it; a 15 MB explanation ran past 60 s on the GUI thread.
#include "io/Lesson.h"
#include "io/LessonMarkup.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_lessonmarkup {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestLessonMarkup : public QObject
{
    Q_OBJECT

private slots:
    void acceptsTheShippedSubset_data();
    void acceptsTheShippedSubset();
    void refusesWhatTheWindowMustNotLayOut_data();
    void refusesWhatTheWindowMustNotLayOut();
    void everyShippedExplanationIsWithinTheSubset();
};

void TestLessonMarkup::acceptsTheShippedSubset_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("plain text") << u"No markup at all, with {ratio} and a > sign."_s;
    QTest::newRow("paragraphs, sub and sup")
        << u"<p>w<sub>i</sub> = b<sup>−2i/d</sup></p><p>‖PE<sub>p</sub>‖ = {pe_norm}</p>"_s;
    QTest::newRow("emphasis and code") << u"<p><b>bold</b>, <i>i</i>, <em>em</em>, <strong>s</strong>, "
                                          "<code>x = x + pe</code></p>"_s;
    QTest::newRow("line breaks") << u"one<br>two<br/>three<br />four"_s;
    QTest::newRow("entities") << u"a &lt; b &amp;&amp; c &gt; d"_s;
    QTest::newRow("six deep") << u"<p><b><i><em><strong><sub>x</sub></strong></em></i></b></p>"_s;
    QTest::newRow("the longest allowed") << QString(LessonMarkup::kMaxExplanation, u'x');
}

void TestLessonMarkup::acceptsTheShippedSubset()
{
    QFETCH(QString, text);
    const auto refused = LessonMarkup::checkExplanation(text);
    QVERIFY2(!refused, qPrintable(refused.value_or(QString())));
}

void TestLessonMarkup::refusesWhatTheWindowMustNotLayOut_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("an image of a device") << u"<img src=/dev/zero>"_s << u"uses <img src=/dev/zero>"_s;
    QTest::newRow("an image of a file") << u"<p>see <img src=\"file:///etc/passwd\"></p>"_s << u"uses <img"_s;
    QTest::newRow("a style that loads") << u"<p style=\"background: url(/dev/zero)\">x</p>"_s << u"uses <p style="_s;
    QTest::newRow("a link") << u"<a href=\"https://example.org\">x</a>"_s << u"uses <a href="_s;
    QTest::newRow("a table") << u"<table><tr><td>x</td></tr></table>"_s << u"uses <table>"_s;
    QString nested;
    for (int i = 0; i < 20; ++i)
        nested = u"<table><tr><td>"_s + nested + u"</td></tr></table>"_s;
    QTest::newRow("20 nested tables") << nested << u"uses <table>"_s;
    QString deep;
    for (int i = 0; i < 1000; ++i)
        deep = u"<b>"_s + deep + u"</b>"_s;
    QTest::newRow("1,000 nested tags") << deep << u"nests tags 7 deep; an explanation nests them at most 6 deep"_s;
    for (int i = 1000; i < 5000; ++i)
        deep = u"<b>"_s + deep + u"</b>"_s;
    QTest::newRow("5,000 nested tags") << deep << u"is 35000 characters long; an explanation holds at most 16384"_s;
    QTest::newRow("15 MB") << QString(15 << 20, u'x')
                           << u"is 15728640 characters long; an explanation holds at most 16384"_s;
    QTest::newRow("one character too long") << QString(LessonMarkup::kMaxExplanation + 1, u'x') << u"at most 16384"_s;
    QTest::newRow("a script") << u"<script>alert(1)</script>"_s << u"uses <script>"_s;
    QTest::newRow("an attribute on a tag of the subset") << u"<b class=\"x\">y</b>"_s << u"uses <b class="_s;
    QTest::newRow("tags out of order") << u"<b><i>x</b></i>"_s << u"closes <b> where <i> is open"_s;
    QTest::newRow("a tag left open") << u"<p>x"_s << u"leaves <p> open"_s;
    QTest::newRow("a bare <") << u"1 < 2"_s << u"starts no tag"_s;
    QTest::newRow("a comment") << u"<!-- x -->"_s << u"uses <!--"_s;
}

void TestLessonMarkup::refusesWhatTheWindowMustNotLayOut()
{
    QFETCH(QString, text);
    QFETCH(QString, reason);
    const auto refused = LessonMarkup::checkExplanation(text);
    QVERIFY(refused);
    QVERIFY2(refused->contains(reason), qPrintable(*refused));
    // A message quotes a tag shortened, never the whole text.
    QVERIFY(refused->size() < 400);
}

void TestLessonMarkup::everyShippedExplanationIsWithinTheSubset()
{
    QVERIFY(Lessons::errors().isEmpty());
    QVERIFY(!Lessons::all().isEmpty());
    // Every alternative of every item, wrapped as it is shown.
    for (const Lesson &lesson : Lessons::all()) {
        for (const QString &fragment : lesson.text.fragments()) {
            const auto refused = LessonMarkup::checkExplanation(fragment);
            QVERIFY2(!refused, qPrintable(lesson.name + u": "_s + refused.value_or(QString())));
        }
    }
}

POSENC_TEST_GUILESS_MAIN(TestLessonMarkup)
} // namespace tst_lessonmarkup
#include "tst_lessonmarkup.moc"
