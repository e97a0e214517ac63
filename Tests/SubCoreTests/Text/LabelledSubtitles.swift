import SubCore

/// A labelled set of subtitle files for detection: the project's own short sentences in each language, written
/// as SRT in every encoding the language is commonly saved in, from 1 to 200 cues. Each file knows the text it
/// holds, so a test can tell a right decoding from a wrong one.
struct LabelledSubtitle: Sendable, CustomStringConvertible {
    var language: String
    var encoding: String
    var cues: Int
    /// Which sentence the file starts with.
    var start: Int
    /// The file's text (UTF-8).
    var text: [UInt8]
    /// The file's bytes in `encoding`.
    var bytes: [UInt8]
    /// The font names the file asks for (`<font face>` of every third cue).
    var fonts: [String]

    var description: String { "\(language) \(encoding) \(cues) cue(s) from sentence \(start)" }
}

enum LabelledSubtitles {
    /// Sentences written for these tests, and the encodings each language is saved in (iconv names; BOM-prefixed
    /// Unicode forms are added for every language).
    static let languages: [(code: String, encodings: [String], sentences: [String])] = [
        (
            "zh-Hans", ["GBK", "GB18030"],
            [
                "我们明天早上八点在车站见面。", "你今天怎么这么早就回来了？", "这家小店的面条真的很好吃。", "下雨了，记得带伞出门。",
                "他一直在图书馆里看书，没有出来。", "别担心，我们一定能找到办法的。", "请把窗户关上，外面太冷了。", "我已经把那封信寄给老师了。",
                "这是我第一次一个人去旅行。", "时间不早了，大家快点上车吧！",
            ]
        ),
        (
            "zh-Hant", ["CP950", "BIG5-HKSCS"],
            [
                "我們明天早上八點在車站見面。", "你今天怎麼這麼早就回來了？", "這家小店的麵條真的很好吃。", "下雨了，記得帶傘出門。",
                "他一直在圖書館裡看書，沒有出來。", "別擔心，我們一定能找到辦法的。", "請把窗戶關上，外面太冷了。", "我已經把那封信寄給老師了。",
                "這是我第一次一個人去旅行。", "時間不早了，大家快點上車吧！",
            ]
        ),
        (
            "ja", ["CP932", "EUC-JP"],
            [
                "明日の朝、駅の前で待っています。", "どうしてそんなに急いでいるの？", "この店のラーメンは本当においしい。", "雨が降ってきたから、傘を持っていこう。",
                "彼はずっと図書館で本を読んでいた。", "心配しないで、きっと何とかなるよ。", "窓を閉めてください。外は寒いです。", "先生にはもう手紙を送りました。",
                "一人で旅行するのは初めてです。", "もう遅いから、早く電車に乗ろう！",
            ]
        ),
        (
            "ko", ["EUC-KR", "CP949"],
            [
                "내일 아침 여덟 시에 역 앞에서 만나요.", "오늘은 왜 이렇게 일찍 돌아왔어?", "이 가게의 국수는 정말 맛있어요.", "비가 오니까 우산을 꼭 챙기세요.",
                "그는 하루 종일 도서관에서 책을 읽었다.", "걱정하지 마, 우리가 방법을 찾을 거야.", "창문 좀 닫아 주세요. 밖이 너무 추워요.", "선생님께 편지를 벌써 보냈어요.",
                "혼자서 여행을 가는 건 처음이에요.", "시간이 늦었으니 모두 빨리 타세요!",
            ]
        ),
        (
            "pl", ["WINDOWS-1250", "ISO-8859-2"],
            [
                "Spotkajmy się jutro o ósmej przy dworcu.", "Dlaczego wróciłeś dziś tak wcześnie?",
                "Zupa w tej małej knajpce jest naprawdę dobra.",
                "Pada deszcz, weź ze sobą parasol.", "Cały dzień siedział w bibliotece i czytał.",
                "Nie martw się, na pewno znajdziemy sposób.",
                "Zamknij okno, na zewnątrz jest zimno.", "Już wysłałam ten list do nauczyciela.",
                "Pierwszy raz podróżuję zupełnie sama.",
                "Jest późno, wsiadajcie szybko do pociągu!",
            ]
        ),
        (
            "cs", ["WINDOWS-1250", "ISO-8859-2"],
            [
                "Zítra ráno v osm se sejdeme u nádraží.", "Proč ses dnes vrátil tak brzy?",
                "Polévka v té malé hospodě je opravdu dobrá.",
                "Prší, vezmi si s sebou deštník.", "Celý den seděl v knihovně a četl.",
                "Neboj se, určitě najdeme nějaké řešení.",
                "Zavři okno, venku je zima.", "Ten dopis už jsem učiteli poslala.",
                "Cestuji úplně sama poprvé v životě.",
                "Je pozdě, rychle nastupte do vlaku!",
            ]
        ),
        (
            "ru", ["WINDOWS-1251", "KOI8-R", "ISO-8859-5"],
            [
                "Встретимся завтра в восемь утра у вокзала.", "Почему ты сегодня вернулся так рано?",
                "Суп в этом маленьком кафе очень вкусный.",
                "Идёт дождь, возьми с собой зонтик.", "Он весь день сидел в библиотеке и читал.",
                "Не волнуйся, мы обязательно найдём выход.",
                "Закрой окно, на улице холодно.", "Я уже отправила письмо учителю.",
                "Я впервые путешествую совсем одна.",
                "Уже поздно, быстрее садитесь в поезд!",
            ]
        ),
        (
            "el", ["WINDOWS-1253", "ISO-8859-7"],
            [
                "Θα βρεθούμε αύριο στις οκτώ το πρωί στον σταθμό.", "Γιατί γύρισες τόσο νωρίς σήμερα;",
                "Η σούπα σε αυτό το μικρό μαγαζί είναι πολύ νόστιμη.",
                "Βρέχει, πάρε μαζί σου ομπρέλα.", "Όλη μέρα καθόταν στη βιβλιοθήκη και διάβαζε.",
                "Μην ανησυχείς, σίγουρα θα βρούμε λύση.",
                "Κλείσε το παράθυρο, κάνει κρύο έξω.", "Έστειλα ήδη το γράμμα στον δάσκαλο.",
                "Πρώτη φορά ταξιδεύω εντελώς μόνη.",
                "Είναι αργά, ανεβείτε γρήγορα στο τρένο!",
            ]
        ),
        (
            "tr", ["WINDOWS-1254", "ISO-8859-9"],
            [
                "Yarın sabah sekizde istasyonun önünde buluşalım.", "Bugün neden bu kadar erken döndün?",
                "Bu küçük lokantanın çorbası gerçekten çok güzel.",
                "Yağmur yağıyor, yanına şemsiye al.", "Bütün gün kütüphanede oturup kitap okudu.",
                "Merak etme, mutlaka bir çıkış yolu bulacağız.",
                "Pencereyi kapat, dışarısı soğuk.", "Mektubu öğretmene çoktan gönderdim.",
                "İlk kez tek başıma yolculuk yapıyorum.",
                "Geç oldu, hemen trene binin!",
            ]
        ),
        (
            "he", ["WINDOWS-1255", "ISO-8859-8"],
            [
                "ניפגש מחר בשמונה בבוקר ליד התחנה.", "למה חזרת היום כל כך מוקדם?", "המרק במסעדה הקטנה הזאת ממש טעים.",
                "יורד גשם, קח איתך מטרייה.", "הוא ישב כל היום בספרייה וקרא.", "אל תדאג, בטוח נמצא פתרון.",
                "סגור את החלון, קר בחוץ.", "כבר שלחתי את המכתב למורה.", "זו הפעם הראשונה שאני נוסעת לבד.",
                "כבר מאוחר, תעלו מהר לרכבת!",
            ]
        ),
        (
            "ar", ["WINDOWS-1256"],
            [
                "سنلتقي غدا في الثامنة صباحا عند المحطة.", "لماذا عدت مبكرا هكذا اليوم؟",
                "الحساء في هذا المطعم الصغير لذيذ جدا.",
                "إنها تمطر، خذ معك مظلة.", "جلس طوال اليوم في المكتبة يقرأ.", "لا تقلق، سنجد حلا بالتأكيد.",
                "أغلق النافذة، الجو بارد في الخارج.", "لقد أرسلت الرسالة إلى المعلم.", "هذه أول مرة أسافر فيها وحدي.",
                "لقد تأخر الوقت، اركبوا القطار بسرعة!",
            ]
        ),
        (
            "lt", ["WINDOWS-1257", "ISO-8859-13"],
            [
                "Susitikime rytoj aštuntą ryto prie stoties.", "Kodėl šiandien grįžai taip anksti?",
                "Sriuba šioje mažoje kavinėje tikrai skani.",
                "Lyja, pasiimk skėtį.", "Jis visą dieną sėdėjo bibliotekoje ir skaitė.",
                "Nesijaudink, tikrai rasime išeitį.",
                "Uždaryk langą, lauke šalta.", "Laišką mokytojui jau išsiunčiau.",
                "Pirmą kartą keliauju visiškai viena.",
                "Jau vėlu, greičiau lipkite į traukinį!",
            ]
        ),
        (
            "vi", ["WINDOWS-1258"],
            [
                "Sáng mai tám giờ chúng ta gặp nhau ở nhà ga.", "Sao hôm nay anh về sớm thế?",
                "Món canh ở quán nhỏ này thật sự rất ngon.",
                "Trời mưa rồi, nhớ mang theo ô.", "Anh ấy ngồi đọc sách ở thư viện cả ngày.",
                "Đừng lo, chắc chắn chúng ta sẽ tìm ra cách.",
                "Đóng cửa sổ lại đi, bên ngoài lạnh lắm.", "Tôi đã gửi bức thư cho thầy giáo rồi.",
                "Đây là lần đầu tôi đi du lịch một mình.",
                "Muộn rồi, mọi người lên tàu nhanh lên!",
            ]
        ),
        (
            "th", ["CP874", "TIS-620"],
            [
                "พรุ่งนี้เจอกันที่สถานีตอนแปดโมงเช้า", "ทำไมวันนี้กลับมาเร็วจัง", "ซุปที่ร้านเล็กๆ นี้อร่อยมากจริงๆ",
                "ฝนตกแล้ว อย่าลืมเอาร่มไปด้วย", "เขานั่งอ่านหนังสือในห้องสมุดทั้งวัน", "ไม่ต้องห่วง เราต้องหาทางออกได้แน่",
                "ปิดหน้าต่างหน่อย ข้างนอกหนาว", "ฉันส่งจดหมายถึงครูไปแล้ว", "นี่เป็นครั้งแรกที่ฉันเดินทางคนเดียว",
                "ดึกแล้ว ทุกคนรีบขึ้นรถไฟเร็ว",
            ]
        ),
        (
            "fr", ["WINDOWS-1252", "ISO-8859-1", "ISO-8859-15"],
            [
                "On se retrouve demain à huit heures devant la gare.", "Pourquoi es-tu rentré si tôt aujourd'hui ?",
                "La soupe de ce petit café est vraiment délicieuse.", "Il pleut, prends ton parapluie.",
                "Il a passé toute la journée à lire à la bibliothèque.", "Ne t'inquiète pas, on trouvera une solution.",
                "Ferme la fenêtre, il fait froid dehors.", "J'ai déjà envoyé la lettre au professeur.",
                "C'est la première fois que je voyage toute seule.", "Il est tard, montez vite dans le train !",
            ]
        ),
    ]

    /// The cue counts of the set.
    static let sizes = [1, 2, 3, 5, 10, 50, 200]

    /// Every file of the set: each language in each of its encodings and in UTF-8 (with and without a byte
    /// order mark) and UTF-16 LE/BE; one file per starting sentence for 1 to 3 cues, two for larger sizes.
    static func all() throws -> [LabelledSubtitle] {
        var files: [LabelledSubtitle] = []
        for (code, encodings, sentences) in languages {
            let forms =
                encodings.map { ($0, false) } + [
                    ("UTF-8", false), ("UTF-8", true), ("UTF-16LE", true), ("UTF-16BE", true),
                ]
            for (encoding, mark) in forms {
                for cues in sizes {
                    let starts = cues <= 3 ? Array(sentences.indices) : [0, 5]
                    for start in starts {
                        let (text, fonts) = srt(sentences, cues: cues, start: start)
                        let target = TextEncoding(iconvName: encoding)
                        let bytes = try TextDecoder.encode(text, as: target, byteOrderMark: mark, file: code)
                        files.append(
                            LabelledSubtitle(
                                language: code, encoding: mark ? encoding + "+BOM" : encoding, cues: cues,
                                start: start, text: text, bytes: bytes, fonts: fonts))
                    }
                }
            }
        }
        return files
    }

    /// An SRT of `cues` cues cycling through `sentences` from `start`; every third cue sits in a `<font face>`.
    static func srt(_ sentences: [String], cues: Int, start: Int) -> (text: [UInt8], fonts: [String]) {
        var text = ""
        var fonts: [String] = []
        let faces = ["Arial", "SimHei", "MS Gothic"]
        for cue in 0..<cues {
            let sentence = sentences[(start + cue) % sentences.count]
            let from = cue * 3
            text += "\(cue + 1)\r\n00:\(pad(from / 60)):\(pad(from % 60)),000 --> 00:\(pad((from + 2) / 60)):"
            text += "\(pad((from + 2) % 60)),500\r\n"
            if cue % 3 == 2 {
                let face = faces[(cue / 3) % faces.count]
                fonts.append(face)
                text += "<font face=\"\(face)\">\(sentence)</font>\r\n\r\n"
            } else {
                text += "\(sentence)\r\n\r\n"
            }
        }
        return (Array(text.utf8), fonts)
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
