#include "UserGuideDialog.h"

#include "UserGuide.h"

#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
{
    setWindowTitle(tr("PosEnc Explorer user guide"));
    setObjectName(u"userGuideDialog"_s);
    m_browser->setOpenExternalLinks(true);
    m_browser->setMarkdown(UserGuide::markdown());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(900, 700);
}

} // namespace posenc
