// Help > About: the version, the program's licence and every library with its own licence,
// and the Help menu of the window that opens it.
#include "gui/AboutDialog.h"
#include "gui/MainWindow.h"
#include "support/TestMain.h"

#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTest>

namespace tst_aboutdialog {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

AboutDialog *openAboutDialog()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *dialog = qobject_cast<AboutDialog *>(w); dialog && dialog->isVisible())
            return dialog;
    }
    return nullptr;
}

} // namespace

class TestAboutDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void showsTheVersionAndLicence();
    void namesEveryLibraryWithItsLicence_data();
    void namesEveryLibraryWithItsLicence();
    void helpMenuOpensIt();
};

void TestAboutDialog::initTestCase()
{
    QCoreApplication::setApplicationVersion(u"9.8.7"_s);
}

void TestAboutDialog::showsTheVersionAndLicence()
{
    AboutDialog dialog;
    const QString text = dialog.findChild<QLabel *>(u"aboutText"_s)->text();
    QVERIFY2(text.contains(u"PosEnc Explorer 9.8.7"_s), qPrintable(text));
    QVERIFY2(text.contains(u"GPL-3.0-or-later"_s), qPrintable(text));
    QCOMPARE(AboutDialog::licence(), u"GPL-3.0-or-later"_s);
}

void TestAboutDialog::namesEveryLibraryWithItsLicence_data()
{
    QTest::addColumn<QString>("library");
    QTest::addColumn<QString>("licence");
    QTest::newRow("Qt") << u"Qt"_s << u"LGPL-3.0"_s;
    QTest::newRow("QCustomPlot") << u"QCustomPlot"_s << u"GPL-3.0"_s;
    QTest::newRow("Eigen") << u"Eigen"_s << u"MPL-2.0"_s;
    QTest::newRow("Random123") << u"Random123"_s << u"BSD-3-Clause"_s;
    QTest::newRow("Highway") << u"Highway"_s << u"Apache-2.0 OR BSD-3-Clause"_s;
    QTest::newRow("DejaVu fonts") << u"DejaVu fonts"_s << u"Bitstream-Vera"_s;
}

void TestAboutDialog::namesEveryLibraryWithItsLicence()
{
    QFETCH(QString, library);
    QFETCH(QString, licence);
    bool listed = false;
    for (const AboutDialog::Library &l : AboutDialog::libraries()) {
        if (l.name == library) {
            listed = true;
            QVERIFY2(l.licence.startsWith(licence), qPrintable(l.licence));
        }
    }
    QVERIFY(listed);
    AboutDialog dialog;
    const QString text = dialog.findChild<QLabel *>(u"aboutText"_s)->text();
    QVERIFY2(text.contains(library) && text.contains(licence), qPrintable(text));
}

void TestAboutDialog::helpMenuOpensIt()
{
    MainWindow window(Params {}, nullptr);
    window.show();
    QMenu *help = window.menuBar()->findChild<QMenu *>(u"helpMenu"_s);
    QVERIFY(help);
    QStringList texts;
    for (const QAction *action : help->actions())
        texts << action->text();
    // The lessons and the keyboard shortcuts come first (tst_lessons), the About boxes last.
    QCOMPARE(texts.mid(texts.size() - 2), (QStringList {u"&About PosEnc Explorer"_s, u"About &Qt"_s}));
    help->actions().at(texts.size() - 2)->trigger();
    QTRY_VERIFY(openAboutDialog());
    openAboutDialog()->close();
}

POSENC_TEST_MAIN(TestAboutDialog)
} // namespace tst_aboutdialog
#include "tst_aboutdialog.moc"
