#include "AboutDialog.h"

#include "render/QCustomPlot.h"

#include <Eigen/Core>
#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

QString librariesTable()
{
    QString rows;
    for (const AboutDialog::Library &library : AboutDialog::libraries()) {
        rows += u"<tr><td><b>%1</b> %2</td><td>%3</td><td>%4</td></tr>"_s.arg(
            library.name.toHtmlEscaped(), library.version.toHtmlEscaped(), library.licence.toHtmlEscaped(),
            library.role.toHtmlEscaped());
    }
    return u"<table cellspacing=\"0\" cellpadding=\"3\">"
           "<tr><th align=\"left\">%1</th><th align=\"left\">%2</th><th align=\"left\">%3</th></tr>%4</table>"_s.arg(
               AboutDialog::tr("Library"), AboutDialog::tr("Licence"), AboutDialog::tr("Used for"), rows);
}

} // namespace

QString AboutDialog::licence()
{
    return u"GPL-3.0-or-later"_s;
}

QList<AboutDialog::Library> AboutDialog::libraries()
{
    const QString eigen = u"%1.%2.%3"_s.arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION);
    return {
        {u"Qt"_s, QString::fromLatin1(qVersion()), u"LGPL-3.0-only"_s, tr("the window, threads, files")},
        {u"QCustomPlot"_s, QString::fromLatin1(QCUSTOMPLOT_VERSION_STR), u"GPL-3.0-or-later"_s, tr("the plots")},
        {u"Eigen"_s, eigen, u"MPL-2.0"_s, tr("vectorised tables")},
        {u"Random123"_s, {}, u"BSD-3-Clause"_s, tr("Philox random numbers")},
        {u"Highway"_s, {}, u"Apache-2.0 OR BSD-3-Clause"_s, tr("portable SIMD kernels")},
        {u"DejaVu fonts"_s, {}, u"Bitstream-Vera"_s, tr("the figures' text")},
    };
}

AboutDialog::AboutDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(u"aboutDialog"_s);
    setWindowTitle(tr("About PosEnc Explorer"));
    auto *icon = new QLabel;
    icon->setPixmap(QApplication::windowIcon().pixmap(96, 96));
    icon->setAlignment(Qt::AlignTop);
    auto *text = new QLabel;
    text->setObjectName(u"aboutText"_s);
    text->setTextFormat(Qt::RichText);
    text->setTextInteractionFlags(Qt::TextBrowserInteraction);
    text->setOpenExternalLinks(true);
    text->setWordWrap(true);
    text->setText(u"<h2>PosEnc Explorer %1</h2>"
                  "<p>%2</p>"
                  "<p>%3</p>"
                  "<p>%4</p>%5"_s.arg(
                      QCoreApplication::applicationVersion().toHtmlEscaped(),
                      tr("A transformer's positional encoding, its embeddings and dropout, computed exactly."),
                      tr("Licence: %1. It links QCustomPlot, which is GPL-3.0-or-later, so the program as a whole is "
                         "under the GNU General Public License, version 3 or any later version; it comes with "
                         "no warranty.")
                          .arg(licence()),
                      tr("Built with these libraries, each under its own licence:"), librariesTable()));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *row = new QHBoxLayout;
    row->addWidget(icon);
    row->addWidget(text, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(buttons);
}

QMenu *createHelpMenu(QMenuBar *bar, QWidget *parent)
{
    QMenu *help = bar->addMenu(AboutDialog::tr("&Help"));
    help->setObjectName(u"helpMenu"_s);
    QAction *about = help->addAction(AboutDialog::tr("&About PosEnc Explorer"), parent, [parent] {
        auto *dialog = new AboutDialog(parent);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(AboutDialog::tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
    return help;
}

} // namespace posenc
