#include "UserGuideDialog.h"

#include "UserGuide.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser)
{
    setWindowTitle(tr("PosEnc Explorer user guide"));
    setObjectName(u"userGuideDialog"_s);
    // Links are followed here: the guide's own sections by their anchors, which Qt's Markdown
    // does not make, the rest by the desktop.
    m_browser->setOpenLinks(false);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &UserGuideDialog::follow);
    m_browser->setMarkdown(UserGuide::markdown());
    // The guide's start: its title and the window, not wherever a cursor was left.
    m_browser->moveCursor(QTextCursor::Start);
    m_browser->verticalScrollBar()->setValue(0);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(900, 700);
}

QString UserGuideDialog::anchorOf(const QString &heading)
{
    QString anchor;
    for (const QChar c : heading.toLower()) {
        if (c.isLetterOrNumber() || c == u'-' || c == u'_')
            anchor += c;
        else if (c == u' ')
            anchor += u'-';
    }
    return anchor;
}

bool UserGuideDialog::showSection(const QString &anchor)
{
    QTextDocument *document = m_browser->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || anchorOf(block.text()) != anchor)
            continue;
        QTextCursor cursor(block);
        m_browser->setTextCursor(cursor);
        const qreal top = document->documentLayout()->blockBoundingRect(block).top();
        m_browser->verticalScrollBar()->setValue(int(top));
        return true;
    }
    return false;
}

void UserGuideDialog::follow(const QUrl &url)
{
    if (url.isRelative() && url.path().isEmpty() && url.hasFragment()) {
        showSection(url.fragment());
        return;
    }
    QDesktopServices::openUrl(url);
}

} // namespace posenc
