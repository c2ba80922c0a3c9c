"""German: the words of map requests, read in English (see the package docstring). Nouns are
capitalised in German, so a capital says nothing of a name here (`NAMES_CAPITALISED`); verbs
that split ("blende die Städte aus") and verbs at the end ("die Städte ausblenden") are put
back together first."""

from __future__ import annotations

import re

from maproom.domain.chat.lang import common
from maproom.domain.chat.lang.de_replies import REPLIES, YES, shown

__all__ = [
    "AFTER",
    "MARKERS",
    "NAMES_CAPITALISED",
    "PHRASES",
    "REPLIES",
    "REWRITES",
    "YES",
    "shown",
]

NAMES_CAPITALISED = False
MARKERS = ("der", "die", "das", "den", "dem", "des", "und", "auf", "nach", "mit", "bitte",
           "ich", "ein", "eine", "einen", "zu", "zum", "zur", "im", "ist", "sind", "mir", "mal",
           "wie", "viele", "welche", "welcher", "danke", "ebene", "karte", "zeig", "zeige",
           "alle", "nicht", "noch", "auch", "hebe", "hervor")  # fmt: skip


# Where a clause ends: the particle of a split verb comes just before.
END = r"(?=\s*(?:[,.!?;]|$|bitte\b|und\b|dann\b))"
REWRITES = [
    # "für die Pressekarte reichen die Städte": they are enough for it (no request)
    (re.compile(r",?\s*\bfur [^,.!?]+? (?:reichen|reicht|genugen|genugt) [^,.!?]+"), ""),
    # "für jeden Bezirk zählen, wie viele Sehenswürdigkeiten darin liegen": count them in each
    (re.compile(r"\bfur (?:jeden|jede|jedes) (?P<a>\w+) (?:zahlen|zahlt|zahle),? wie viele "
                r"(?P<b>\w+) (?:darin|dort|drin|da) (?:liegen|sind|gibt|stehen)(?:,? und (?:das|es|"
                r"sie|dies) (?:als (?:karte|ebene|layer|neue ebene|eigene ebene) )?(?:zeigen|"
                r"anzeigen|darstellen))?"),
     r"count the \g<b> in each \g<a>"),
    # "eigentlich war es Spanien, das ich hervorheben wollte": I meant Spain
    (re.compile(r"\b(?:eigentlich |doch )?(?:war|ist) es (?P<x>[^,.!?]+?),? (?:das|den|die) ich "
                r"(?:\w+ )*?(?:wollte|meinte)(?:,? nicht [^,.!?]+)?(?=[.!?]|$)"), r"i meant \g<x>"),
    # "stell die Bezirke abgestuft nach dem Feld value dar": colour them by it
    (re.compile(r"\bstell(?:e)? (?P<x>.+?) (?:abgestuft |gestuft )?nach (?P<f>.+?) dar\b"),
     r"colour \g<x> by \g<f>"),
    # "dreh die Karte wieder so, dass Norden oben ist": north up
    (re.compile(r"\b(?:dreh|drehe|richte|richt) (?:die karte )?(?:wieder )?(?:so,? )?dass norden "
                r"oben (?:ist|liegt)\b"), "rotate the map to 0 degrees"),
    # "stell die Städte als Heatmap dar": show them as a heatmap
    (re.compile(r"\bstell(?:e|en sie)? (?P<x>.+?) als (?P<y>.+?) dar\b"), r"show \g<x> as \g<y>"),
    # "Geh zurück, wo wir vorher waren": back to where we were
    (re.compile(r"\b(?:(?:geh|gehe|gehen wir|geht|spring|springe) )?zuruck,? (?:dahin,? |"
                r"dorthin,? )?wo (?:wir|ich) (?:vorher |zuvor |eben |gerade )?"
                r"(?:waren|war)\b"), "back to where we were"),
    # "Benenne die Ebene Cafes in „Lissabon Cafés“ um": rename ... to
    (re.compile(r"\bbenenne (?P<x>.+?) (?:in|zu) [\"“„]?(?P<n>[^\"“”„]+?)[\"”“]? um\b"),
     r'rename \g<x> to "\g<n>"'),
    # "richte die Karte wieder nach Norden aus": north up
    (re.compile(r"\b(?:richte|richt|dreh|drehe) (?:die karte )?(?:wieder )?nach norden(?: aus)?\b"),
     "rotate the map to 0 degrees"),
    (re.compile(r"\bab (?=\d)"), "at least "),  # "mit einem Wert ab 20"
    # "Setz die Ansicht bitte zurück": reset
    (re.compile(r"\bsetz(?:e|en|t)? (?P<x>.+?) zuruck\b"), r"reset \g<x>"),
    # "Fass die Bezirke nach Region zusammen", "Verschmelze die Districts nach Region": by
    (re.compile(r"\b(?:fass|fasse|fasst) (?P<x>.+?) nach (?P<f>\S+) zusammen\b"),
     r"merge \g<x> by \g<f>"),
    (re.compile(r"\b(?:fass|fasse|fasst) (?P<x>.+?) zusammen\b"), r"merge \g<x>"),
    (re.compile(r"\b(?P<v>verschmelze|verschmelzen|vereinige|vereinigen|gruppiere|gruppieren|"
                r"zusammenfassen|fasse zusammen) (?P<x>.+?) nach\b"), r"merge \g<x> by"),
    # "die Summe der Besucher": of the (a genitive after a noun of measure)
    (re.compile(r"\b(?P<n>summe|anzahl|zahl|mittelwert|durchschnitt|gesamtzahl|namen|farbe|"
                r"grosse|bevolkerung|einwohnerzahl|lange|flache|maximum|minimum) "
                r"(?:der|des)\b"), r"\g<n> of the"),
    # "Filter die Städte nach Einwohnerzahl", "Cafés mit Namen beschriften"
    (re.compile(r"\bfilter(?:e|n)? (?P<x>.+?) nach (?P<f>\S+)$"), r"filter \g<x> by \g<f>"),
    (re.compile(r"^(?P<x>.+?) mit (?:den |ihren |ihrem )?(?P<f>\S+) beschriften(?=\s*(?:[?.!]|$))"),
     r"label \g<x> with \g<f>"),
    # "Ich möchte den anderen gern unsere Altstadt zeigen": what it is for (others are to see)
    (re.compile(r"^(?:ich|wir) (?:mochte|mochten|will|wollen|wurde|wurden)(?: gern| gerne)? (?:den "
                r"anderen|allen|ihnen|euch|unseren \w+|meinen \w+|den \w+)\b[^?.!]* (?:zeigen|"
                r"erklaren|vorstellen)(?=\s*(?:[?.!]|$))"), ""),
    # "..., also Bäckerei, Bar und Café jeweils in einer eigenen Farbe": the values, said again
    (re.compile(r",? (?:also|d\. ?h\.|das heisst|sprich) [^?.!]+?(?=[?.!]|$)"), ""),
    # "Bitte zoomen Sie auf München": zoom to it
    (re.compile(r"^(?:bitte )?(?:zoomen|springen|fliegen) sie (?:bitte )?(?:auf|nach|zu) "),
     "zoom to "),
    # "Wären Sie so freundlich, die Karte auf München zu zoomen?": could you zoom ...
    (re.compile(r"^(?:waren|wurden|wurdest|warst|waerst|waeren) (?:sie|du) (?:bitte )?so "
                r"(?:freundlich|nett|lieb|gut)(?: und)?,? (?P<x>[^?.!]+?) zu (?P<v>\w+en)"
                r"(?=\s*(?:[?.!]|$))"), r"konnten sie \g<x> \g<v>"),
    (re.compile(r"^(?:(?:gruezi|gruss gott|hallo|servus|moin),? )?(?:kannst|konntest|konnten|"
                r"konnen|wurden|wurdest) (?:du|sie) (?:bitte |mal )*(?:die karte |die ansicht )?"
                r"(?:bitte |mal )*(?:auf|nach) (?P<x>[^?.!]+?) zoomen(?=\s*(?:[?.!]|$))"),
     r"zoom to \g<x>"),
    # "Blende alles außer den Städten aus": only the cities
    (re.compile(r"\b(?:blend|blende|blenden sie) alles au(?:ss|ß)er (?P<x>.+?) aus" + END),
     r"only show \g<x>"),
    # "Kannst du nach Wien fliegen?", "Ich will Polen sehen"
    (re.compile(r"^(?:kannst|konntest|konnen|konnten|wurdest|wurden) (?:du|sie) (?:bitte |mal |"
                r"mich )*(?P<x>(?:nach|zu|in) [^?.!]+?) (?:fliegen|bringen|springen)"
                r"(?=\s*(?:[?.!]|$))"), r"fly \g<x>"),
    (re.compile(r"^(?:ich )?(?:will|mochte|mochten|wurde gern|wurde gerne|wollte) (?P<x>[^?.!]+?)"
                r" (?:sehen|anschauen|ansehen)(?=\s*(?:[?.!]|$))"), r"show me \g<x>"),
    (re.compile(r"^(?:wurden|konnten|wurdest|konntest|kannst|konnen) (?:sie|du) (?:bitte |mal )*"
                r"(?P<x>[^?.!]+?) (?P<v>anzeigen|zeigen|einblenden|ausblenden|entfernen|loschen|"
                r"markieren|hervorheben|einfarben|farben|klassifizieren|beschriften|umbenennen|"
                r"drehen|neigen|verschieben|bewegen)"
                r"(?=\s*(?:[?.!]|$))"),
     r"\g<v> \g<x>"),
    (re.compile(r"^(?P<x>(?:auf|zu|nach|in|an) [^?.!]+?) zoomen(?=\s*(?:[?.!]|$))"),
     r"zoom \g<x>"),
    (re.compile(r"^(?P<x>(?:zu|nach|in) [^?.!]+?) (?:fliegen|springen)(?=\s*(?:[?.!]|$))"),
     r"fly \g<x>"),
    (re.compile(r"\balles au(?:ss|ß)er(?:halb)?(?: von)? (?P<what>.+?) (?:abdunkeln|ausgrauen|"
                r"verdunkeln)\b"), r"highlight \g<what>"),
    # "Dunkle alles außerhalb von Deutschland ab", "Graue alles außer Japan aus".
    (re.compile(r"\b(?:dunkle|dunkel) (?P<x>.+?) ab" + END), r"darken \g<x>"),
    (re.compile(r"\b(?:graue|grau) (?P<x>.+?) aus" + END), r"grey out \g<x>"),
    # "... nach Norden ausrichten und die Neigung wegnehmen": a second verb at its end
    (re.compile(r"\bund (?P<x>(?:die|den|das|der|alle) [^?.!,]+?) (?P<v>wegnehmen|entfernen|"
                r"loschen|ausblenden|einblenden|anzeigen|zeigen|zurucksetzen|ausschalten|einschalten|"
                r"markieren|hervorheben)(?=\s*(?:[?.!,]|$))"), r"und \g<v> \g<x>"),
    (re.compile(r"\b(\w+?)tausend\b"), r"\1 tausend"),  # "viertausend"
    (re.compile(r"(\w)-(ebene|layer|schicht)\b"), r"\1 \2"),  # "die Städte-Ebene"
    # "Mach das auch für die Bezirke": do that for them too (not "mach das Wasser blau").
    (re.compile(r"\bmach(?:e)? (?:das|dies|es)(?= (?:auch |ebenfalls |genauso )?(?:fur|bei) )"),
     "do that"),
    # "Die Größe der Städte soll von der Einwohnerzahl abhängen"
    (re.compile(r"^(?P<x>.+?) (?:soll|sollen|sollte|sollten) (?:von|vom) (?P<f>.+?) abhangen"
                + END),
     r"\g<x> depend on \g<f>"),
    (re.compile(r"\b(?:benenne?|nenne?) (?P<what>.+?) (?:in|zu) (?P<name>[^\s\"]\S*) um"
                r"(?= und )"), r'rename \g<what> to "\g<name>"'),
    # "Jetzt Spanien hervorheben statt Frankreich": highlight Spain instead of France
    (re.compile(r"^(?:(?:jetzt|nun|bitte) )*(?P<x>[^,]+?) (?:hervorheben|markieren|hervorgehoben)"
                r"(?P<rest>(?: statt| anstatt| anstelle von) .+)?$"), r"highlight \g<x>\g<rest>"),
    (re.compile(r"\b(?:benenne?|nenne?) (?P<what>.+?) (?:in|zu|um in) (?P<name>[^\s\"]\S*)"
                r"(?: um)?$"), r'rename \g<what> to "\g<name>"'),
    (re.compile(r"\b(?:benenne?|nenne?) (?P<what>.+?) um in (?P<name>.+)$"),
     r'rename \g<what> to "\g<name>"'),
    (re.compile(r"\b(?:mach|mache|machen sie)(?: das| es| dies| die letzte anderung| den "
                r"letzten schritt)? ruckgangig\b"), "undo"),
    (re.compile(r"\b(?P<verb>blend|blende|blenden sie|schalt|schalte) (?P<x>.+?) (?:wieder )?"
                r"(?P<particle>aus|ab|ein|an)" + END), r"\g<verb>\g<particle> \g<x>"),
    (re.compile(r"\b(?:zeig|zeige|zeigen sie) (?P<x>.+?) (?:wieder )?an" + END), r"show \g<x>"),
    # "Schneid die Flüsse auf Frankreich zu": clip them to France
    (re.compile(r"\b(?:schneid|schneide|schneiden sie) (?P<x>.+?) (?:auf|an|nach) (?P<y>.+?) zu"
                + END), r"clip \g<x> to \g<y>"),
    # a relative clause of what the features are: "Flüsse, die länger als 900 km sind"
    (re.compile(r",? (?:die|der|das) (?P<x>[^,]+?) (?:sind|ist)" + END), r" \g<x>"),
    (re.compile(r"\b(?:heb|hebe|heben sie) (?P<x>.+?) (?:hervor|vor)" + END),
     r"highlight \g<x>"),
    (re.compile(r"\b(?:farbe|farb|farben sie) (?P<x>.+?) (?P<how>nach .+|.+?) ein" + END),
     r"colour \g<x> \g<how>"),
    (re.compile(r"\b(?:zoom|zoome|zoomen sie)(?: (?:etwas|ein bisschen|ein wenig|weiter|noch "
                r"etwas|mal))* (?:heran|hinein|rein|naher ran|ran)\b"), "zoom in"),
    (re.compile(r"\b(?:zoom|zoome|zoomen sie)(?: (?:etwas|ein bisschen|ein wenig|weiter|noch "
                r"etwas|mal))* (?:heraus|raus|hinaus)\b"), "zoom out"),
    (re.compile(r"^(?P<x>.+?) (?:ausblenden|verstecken|ausschalten)" + END), r"hide \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:einblenden|anzeigen|zeigen|einschalten)" + END), r"show \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:entfernen|loschen)" + END), r"remove \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:verschieben|bewegen)" + END), r"move \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:verschmelzen|zusammenfassen|zusammenfuhren)" + END),
     r"merge \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:drehen)" + END), r"rotate \g<x>"),
    (re.compile(r"^(?P<x>.+?) (?:neigen|kippen)" + END), r"tilt \g<x>"),
]  # fmt: skip
AFTER = [
    # "einen Puffer von 300 Metern um die Cafés": around them
    (re.compile(r"\b(buffer|zone|area|circle)( of [\d.,]+ ?\w+) by\b"), r"\1\2 around"),
    # "die Kreise der Städte": the circles of the cities (a genitive)
    (
        re.compile(
            r"\bthe (?P<n>circles|points|dots|symbols|markers|names|radius|size) the (?=\w)"
        ),
        r"the \g<n> of the ",
    ),
    # "der Sites-Punkte": of the Sites points
    (re.compile(r"\b(?P<x>\w+)-(?:punkte|kreise|symbole|linien|flachen)\b"), r"\g<x>"),
    (re.compile(r"^make (?P<what>.+?) undo(?P<end>[.!]*)$"), r"undo \g<what>\g<end>"),  # rückgängig
    # "Klassifizieren Sie die Distrikte": the polite "Sie" after the verb is no object
    (re.compile(r"^(?P<v>\w+(?: in| out)?) them (?=(?:the|my|all|a|an)\b)"), r"\g<v> "),
    (re.compile(r"^(?P<what>.+?) to (?P<field>\S+) colour\b"), r"colour \g<what> by \g<field>"),
    # A separable verb's particle last: "Schneide die Flüsse auf Portugal zu".
    (re.compile(r"^(?P<all>clip .+) to$"), r"\g<all>"),
    (
        re.compile(r"^(?P<verb>colou?r|classify|size|shade) (?P<what>.+?) to "),
        r"\g<verb> \g<what> by ",
    ),
    # The verb last: "zwei Stufen rauszoomen".
    (
        re.compile(r"^(?P<n>\S+) (?P<unit>levels?) zoom (?P<way>in|out)$"),
        r"zoom \g<way> \g<n> \g<unit>",
    ),
]
PHRASES: dict[str, str] = {
    # spoken forms (issue sets L and M): "Bringen Sie mich", "Servus", "nach Norden ausrichten"
    "zoom hin": "zoom there", "zoome hin": "zoom there", "zoom dorthin": "zoom there",
    "flieg hin": "fly there", "flieg dorthin": "fly there", "mal eben": "", "grueezi": "hello",
    "bringen sie mich": "take me", "wenigste": "fewest", "servus": "hello", "gruezi": "hello",
    "moin": "hello", "nach norden ausrichten": "north up",
    "einnorden": "north up",
    "karte wieder nach norden ausrichten": "north up again",
    "karte nach norden ausrichten": "north up",
    "wieder nach norden ausrichten": "north up again", "genordet": "north up",
    "freundliche grüße": "kind regards", "mit freundlichen grüßen": "kind regards",
    "viele grüße": "kind regards", "liebe grüße": "kind regards", "eleganter": "more elegant",
    "schoner": "prettier", "ich brauche": "i need", "eigene": "new", "da hin": "there",
    "dahin": "there",
    "wir brauchen": "we need", "ausrichten": "orient", "wegnehmen": "remove", "nimm": "take",
    "ausdehnung": "extent", "wohnen im": "live in the",
    "wohnen in": "live in", "leben im": "live in the", "leben in": "live in",
    "benenn": "rename",
    "ignoriere das": "ignore that", "ignorier das": "ignore that",
    "mach das nicht": "don't do that", "tu das nicht": "don't do that",
    # asking as a question ("zeigst du mir Wien?"), seeing up close
    "zeigst du mir": "show me", "von nahem": "up close",
    "aus der nahe": "up close", "maskiere": "mask", "maskier": "mask", "maskieren": "mask",
    # which way is up: "richte die Karte so aus, dass Osten oben ist"
    "sodass": "so that", "so dass": "so that", "oben ist": "is up", "oben liegt": "is up",
    "eine halbe million": "half a million", "halbe million": "half a million",
    "ubrig": "left", "sind ubrig": "are left", "sind noch ubrig": "are left",
    "bleiben ubrig": "are left", "bleiben": "are left",
    "ich plane eine reise nach": "planning a trip to",
    "wiederholen": "redo",
    "ganz": "all",
    "zu einer flache": "into one area",
    "umriss": "outline",
    "umrisse": "outline",
    "sud": "south",
    "nord": "north",
    "ost": "east",
    "staat": "state",
    "den rest": "the rest",
    "der rest": "the rest",
    "die anderen": "the others",
    "die restlichen": "the others",
    "außer": "except",
    "alles außer": "everything except",
    "namen der": "names of the",
    "namen von": "names of",
    "auf der karte": "on the map",
    "und wie lang ist er": "",
    "ganze": "whole",
    "ganzen": "whole",
    "ausrichtung": "bearing",
    "stell": "set",
    "hellen": "light",
    "helles": "light",
    "dunkles": "dark",
    "ausserhalb": "outside",
    "außerhalb": "outside",
    "ausserhalb von": "outside of",
    "außerhalb von": "outside of",
    "verdunkle": "darken",
    "liegen": "lie",
    "art": "type",
    "liegt": "lies",
    "anderung": "change",
    "abhangig vom": "depending on the",
    "anzahl": "number",
    "anzahl der": "number of",
    "weltansicht": "world view",
    "zuruck zur": "back to the",
    "zuruck zum": "back to the",
    "ausgangsansicht": "initial view",
    "satellitenkarte": "satellite map",
    "kannst du auf": "zoom to",
    "zoomen": "",
    "mach aus den": "make the",
    "eine heatmap": "a heatmap",
    "besucherzahl": "visitors",
    "auf der grundkarte": "on the basemap",
    "landermaske": "country mask",
    "die landermaske": "the country mask",
    "ist am kurzesten": "is the shortest",
    "ist am langsten": "is the longest",
    "am kurzesten": "the shortest",
    "am langsten": "the longest",
    "wie lang ist er": "",
    "ausser": "except",
    "alles ausser": "everything except",
    "oder hoher": "or more",
    "oder mehr": "or more",
    "oder weniger": "or less",
    "hoher": "higher",
    "losch alles": "delete everything",
    "losche alles": "delete everything",
    "konnten sie mir sagen": "tell me",
    "konnen sie mir sagen": "tell me",
    "kannst du mir sagen": "tell me",
    "sagen": "tell",
    "norden bitte wieder nach oben": "north up",
    "norden wieder nach oben": "north up",
    "norden nach oben": "north up",
    "dasselbe fur": "the same for",
    "das gleiche fur": "the same for",
    "deutschen": "german",
    "franzosischen": "french",
    "spanischen": "spanish",
    "feld": "field",
    "punktgröße der": "point size of the",
    "größe der": "size of the",
    "farbe der": "colour of the",
    "abhangig von der": "depending on the",
    "mit den meisten": "with the most",
    "mit den wenigsten": "with the fewest",
    "stufen": "levels",
    "raus": "out",
    "rein": "in",
    "hauptstadte": "capitals",
    "hauptstadten": "capitals",
    "hauptstadt": "capital",
    "zusammen": "in total",
    # corrections: "no, wait, ..."
    "nein": "no", "warte": "wait", "ich meine": "i mean", "entschuldigung": "sorry",
    "oder besser": "or rather",
    "berechne": "calculate", "berechnen": "calculate", "errechne": "calculate", "aus": "from",
    "sind": "are", "ist": "is",
    "schwenken": "pan", "schwenke": "pan", "schwenk": "pan",
    "wie hoch ist": "what is", "wie hoch sind": "what are",
    "wieder sichtbar": "visible again", "sichtbar": "visible", "unsichtbar": "invisible",
    "schreib": "write", "schreibe": "write", "gedicht": "poem", "lied": "song", "witz": "joke",
    "wieder nach norden": "north up",
    "sehenswurdigkeiten": "sites", "sehenswurdigkeit": "site", "sterne": "stars",
    "sternen": "stars", "in den daten enthalten": "in the data", "enthalten": "included",
    **common.people("de"),
    **common.nouns("de"),
    **common.numbers({
        "null": 0, "eins": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "sechs": 6,
        "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12, "dreizehn": 13,
        "vierzehn": 14, "funfzehn": 15, "sechzehn": 16, "zwanzig": 20, "dreissig": 30,
        "dreißig": 30, "vierzig": 40, "funfzig": 50, "sechzig": 60, "siebzig": 70,
        "achtzig": 80, "neunzig": 90, "siebzehn": 17, "achtzehn": 18, "neunzehn": 19,
        "hundert": 100, "hundertachtzig": 180, "einhundertachtzig": 180,
        "zweihundertsiebzig": 270, "zweihundert": 200, "dreihundert": 300, "vierhundert": 400,
        "funfhundert": 500,
    }, lambda ten, unit: f"{'ein' if unit == 'eins' else unit}und{ten}"),
    "millionen": "million", "million": "million", "mio": "million", "tausend": "thousand",
    "doppelt": "twice", "zweimal": "twice", "halb": "half", "die halfte": "half",
    # separated verbs put back together (`REWRITES`)
    "blendaus": "hide", "blendeaus": "hide", "blenden sieaus": "hide", "blendab": "hide",
    "blendeab": "hide", "blendein": "show", "blendeein": "show", "blenden sieein": "show",
    "schaltaus": "turn off", "schalteaus": "turn off", "schaltab": "turn off",
    "schalteab": "turn off", "schaltein": "turn on", "schalteein": "turn on",
    "schaltan": "turn on", "schaltean": "turn on",
    # politeness and filler
    "bitte": "please", "bitte schon": "please", "danke": "thanks", "danke schon": "thanks",
    "vielen dank": "thanks", "super": "great", "toll": "great", "prima": "great",
    "perfekt": "perfect", "hallo": "hello", "guten tag": "hello", "kannst du": "can you",
    "konntest du": "could you", "konnen sie": "can you", "konnten sie": "could you",
    "wurdest du": "could you", "ich mochte": "i want to", "ich will": "i want to",
    "ich hatte gern": "i want to", "mal": "", "doch": "", "jetzt": "now", "nun": "now",
    "auch": "also", "dann": "then", "danach": "then", "und dann": "then", "und": "and",
    "aber": "but", "oder": "or", "ein bisschen": "a bit", "ein wenig": "a bit",
    "etwas": "a bit", "viel": "a lot", "wieder": "again", "nochmal": "again",
    "noch einmal": "again", "nur": "only", "alles": "everything", "alle": "all",
    "hilfe": "help", "was kannst du": "what can you do", "dasselbe": "the same",
    "das gleiche": "the same", "genauso": "the same", "ebenfalls": "too",
    # determiners and prepositions
    "der": "the", "die": "the", "das": "the", "den": "the", "dem": "the", "des": "of the",
    "ein": "a", "eine": "a", "einen": "a", "einem": "a", "einer": "a", "zu": "to",
    "zum": "to the", "zur": "to the", "nach": "to", "auf": "to", "in": "in", "im": "in the",
    "ins": "to the", "mit": "with", "ohne": "without", "von": "of", "vom": "of the",
    "fur": "for", "um": "by", "bis": "to", "uber": "over", "zwischen": "between",
    "nach der": "by the", "je nach": "by", "gemass": "by", "als": "as", "sie": "them",
    "es": "it", "ihn": "it", "ihre": "their", "ihren": "their", "ihrer": "their",
    "laut datensatz": "in the data", "laut daten": "in the data", "laut den daten": "in the data",
    "im datensatz": "in the data", "seine": "its",
    "dieses": "this", "diese": "these", "diesen": "this", "dieser": "this", "dort": "there",
    "da": "there", "dorthin": "there", "hier": "here", "mir": "me", "uns": "us",
    # going places
    "flieg nach": "fly to", "fliege nach": "fly to", "flieg zu": "fly to", "fliege zu":
    "fly to", "flieg": "fly", "fliege": "fly", "geh nach": "go to", "gehe nach": "go to",
    "geh zu": "go to", "gehe zu": "go to", "springe zu": "go to", "spring zu": "go to",
    "bring mich nach": "take me to", "bring mich zu": "take me to", "bring mich": "take me to",
    "bringe mich nach": "take me to", "fuhre mich nach": "take me to", "zeig mir": "show me",
    "zeige mir": "show me", "zeigen sie mir": "show me", "zeig": "show", "zeige": "show",
    "anzeigen": "show", "zentriere die karte auf": "center the map on",
    "zentriere auf": "center on", "zentriere": "center", "suche": "find", "finde": "find",
    "wo ist": "where is", "wo liegt": "where is", "ich will sehen": "show me",
    "zuruck nach": "back to", "zuruck zu": "back to",
    # zoom and camera
    "zoom auf": "zoom to", "zoome auf": "zoom to", "zoom nach": "zoom to", "zoom in":
    "zoom in", "hineinzoomen": "zoom in", "heranzoomen": "zoom in", "reinzoomen": "zoom in",
    "vergrossere die karte": "zoom in", "herauszoomen": "zoom out", "rauszoomen":
    "zoom out", "auf stufe": "to level", "auf zoomstufe": "to level", "zoomstufe":
    "zoom level", "stufe": "level", "level": "level", "naher": "closer", "weiter weg":
    "further", "dreh": "rotate", "drehe": "rotate", "drehen": "rotate", "rotiere": "rotate",
    "grad": "degrees", "neige": "tilt", "neig": "tilt", "kippe": "tilt", "neigung": "pitch",
    "in 3d": "3d", "3d-ansicht": "3d view", "3d ansicht": "3d view", "perspektivisch":
    "perspective", "flach": "flat", "kamera": "camera",
    "wieder flach": "flat again", "keine neigung mehr": "no more tilt",
    "keine neigung": "no tilt", "verschiebe die karte": "move the map",
    "verschiebe": "move", "verschieb": "move", "bewege": "move", "beweg": "move",
    "norden": "north", "nach norden": "north", "suden": "south", "nach suden": "south",
    "osten": "east", "nach osten": "east", "westen": "west", "nach westen": "west",
    "links": "left", "nach links": "left", "rechts": "right", "nach rechts": "right",
    "oben": "up", "nach oben": "up", "unten": "down", "nach unten": "down",
    "setze die ansicht zuruck": "reset the view", "ansicht zurucksetzen": "reset the view",
    "zurucksetzen": "reset", "setze zuruck": "reset", "startansicht": "initial view",
    "die ganze welt": "the whole world", "ganze welt": "the whole world", "welt": "world",
    "ansicht": "view", "karte": "map",
    # layers
    "ebene": "layer", "ebenen": "layers", "layer": "layer", "schicht": "layer",
    "schichten": "layers", "die ebene": "the layer", "welche ebenen": "what layers",
    "liste die ebenen": "list the layers", "blende": "hide", "verstecke": "hide",
    "versteck": "hide", "ausblenden": "hide", "entferne": "remove", "entfern": "remove",
    "losche": "delete", "losch": "delete", "loschen": "delete", "benenne": "rename",
    "nach vorne": "to the front", "ganz nach oben": "to the top", "ganz nach unten":
    "to the bottom", "nach hinten": "to the bottom", "uber die": "above the",
    "unter die": "below the", "alle ebenen": "all layers",
    # styles
    "farbe": "colour", "farb": "colour", "farben": "colour", "einfarben": "colour",
    "male": "paint", "mal an": "paint", "mach": "make", "mache": "make", "machen sie":
    "make", "setze": "set", "setz": "set", "stelle": "set", "andere": "change",
    "ander": "change", "farbe von": "colour of", "stil": "style", "grosser": "bigger",
    "großer": "bigger", "kleiner": "smaller", "dicker": "thicker", "dunner": "thinner",
    "breiter": "wider", "schmaler": "thinner", "transparenter": "more transparent",
    "durchsichtiger": "more transparent", "weniger transparent": "more opaque",
    "deckender": "more opaque", "transparent": "transparent", "halbtransparent":
    "semi-transparent", "durchsichtig": "transparent", "undurchsichtig": "opaque",
    "deckkraft": "opacity", "transparenz": "transparency", "grosse": "size",
    "größe": "size", "punktgrosse": "point size", "punktgröße": "point size",
    "symbolgrosse": "symbol size", "linienbreite": "line width", "radius": "radius",
    "breite": "width", "klassen": "classes", "choroplethenkarte": "choropleth map",
    "flachenkartogramm": "choropleth map", "abgestufte darstellung": "choropleth",
    "kategorien": "categories", "kategorie": "category",
    "gleiche intervalle": "equal intervals", "quantile": "quantile", "basierend auf":
    "based on", "abhangig von": "depending on", "proportional zu": "proportional to",
    "heatmap": "heatmap", "warmekarte": "heatmap", "gewichtet nach": "weighted by",
    "gewichtet mit": "weighted by", "beschrifte": "label", "beschrifte sie": "label them",
    "beschriftungen": "labels", "beschriftung": "labels", "beschriften": "label",
    "labels": "labels", "mit ihren namen": "with their names", "mit namen":
    "with the names", "namen": "names", "name": "name",
    # basemap
    "hintergrundkarte": "basemap", "basiskarte": "basemap", "grundkarte": "basemap",
    "basemap": "basemap", "hintergrund": "background", "dunkler modus": "dark mode",
    "dunkelmodus": "dark mode", "dunkel": "dark", "dunkle": "dark", "dunklen": "dark",
    "hell": "light", "helle": "light", "satellit": "satellite", "satellitenbild":
    "satellite imagery", "satellitenbilder": "satellite imagery", "satellitenansicht":
    "satellite view", "strassenkarte": "street map", "straßenkarte": "street map",
    "strassen": "roads", "straßen": "roads", "wasser": "water", "meer": "sea",
    "ozean": "ocean", "gewasser": "water", "flusse": "rivers", "seen": "lakes",
    "parks": "parks", "gebaude": "buildings", "grenzen": "borders",
    # highlight
    "hebe hervor": "highlight", "hervorheben": "highlight", "statt": "instead of",
    "anstatt": "instead of", "markiere": "highlight",
    "betone": "highlight", "maske": "mask", "hervorhebung": "highlight",
    "entferne die maske": "remove the mask", "entferne die hervorhebung":
    "remove the highlight",
    # data
    "wie viele": "how many", "wieviele": "how many", "gibt es": "are there",
    "hat": "has", "haben": "have", "mit mehr als": "with more than", "mehr als": "more than",
    "mit weniger als": "with fewer than", "weniger als": "fewer than",
    "mindestens": "at least", "hochstens": "at most", "grosser als": "greater than",
    "großer als": "greater than", "kleiner als": "less than", "uber als": "more than",
    "einwohner": "inhabitants", "einwohnern": "inhabitants", "menschen": "people",
    "leute": "people", "bevolkerung": "population", "einwohnerzahl": "population",
    "wert": "value", "werte": "values", "werten": "values", "besucher": "visitors",
    "besuchern": "visitors", "lange": "length", "was ist": "what is",
    "welches ist": "which is", "welche ist": "which is", "welcher ist": "which is",
    "welche sind": "what are", "welche": "which", "welcher": "which", "welches": "which",
    "was": "what", "sag mir": "tell me", "felder": "fields", "attribute": "attributes",
    "spalten": "columns", "grosste": "biggest", "grossten": "biggest", "größte": "biggest",
    "größten": "biggest", "grosstes": "biggest", "kleinste": "smallest",
    "kleinsten": "smallest", "bevolkerungsreichste": "most populous",
    "bevolkerungsreichsten": "most populous", "meistbesuchte": "most visited",
    "meistbesuchten": "most visited", "meisten besucher": "most visitors",
    "langste": "longest", "langsten": "longest", "kurzeste": "shortest",
    "kurzesten": "shortest", "hochste": "highest", "hochsten": "highest",
    "niedrigste": "lowest", "niedrigsten": "lowest", "meisten": "most", "wenigsten":
    "fewest", "maximum": "maximum", "maximale": "maximum", "minimum": "minimum",
    "minimale": "minimum", "durchschnitt": "average", "durchschnittliche": "average",
    "mittelwert": "average", "summe": "sum", "gesamt": "total", "gesamte": "total",
    "insgesamt": "in total", "arten": "kinds", "typen": "kinds", "sorten": "kinds",
    "filtere": "filter", "filter": "filter",
    "filter nach": "filter by", "filtere nach": "filter by",
    "filtern nach": "filter by", "filtere die": "filter the", "zeig nur": "only show", "zeige nur":
    "only show", "nur noch": "only", "entferne den filter": "remove the filter",
    "puffer": "buffer", "pufferzone": "buffer", "um die": "around the", "rund um":
    "around", "zahle": "count", "zahl": "count", "jede": "each", "jeden": "each",
    "jedem": "each", "pro": "per", "je": "per", "lose auf": "dissolve", "auflosen":
    "dissolve", "verschmelze": "merge", "fasse zusammen": "merge", "schneide": "clip",
    "zuschneiden": "clip", "neue ebene": "new layer", "eine neue ebene": "a new layer",
    "speichere": "save", "erstelle": "create", "erstell": "create", "genannt": "called",
    "namens": "called",
    "kilometer": "km", "km": "km", "meter": "m", "meilen": "mi",
    # history
    "ruckgangig": "undo", "ruckgangig machen": "undo", "mach ruckgangig": "undo",
    "widerrufe": "undo", "zuruck": "go back", "geh zuruck": "go back",
    "wiederherstellen": "redo", "stelle wieder her": "redo", "wiederhole": "redo",
    "letzten": "last", "letzte": "last", "anderungen": "changes", "schritte": "steps",
    "dinge": "things", "sachen": "things", "aktionen": "actions",
    # colours
    **common.colours({
        "rot": "red", "rote": "red", "roten": "red", "roter": "red", "rotes": "red",
        "blau": "blue", "blaue": "blue", "blauen": "blue", "blauer": "blue", "grun": "green",
        "grune": "green", "grunen": "green", "gelb": "yellow", "gelbe": "yellow",
        "gelben": "yellow", "orange": "orange", "orangen": "orange", "lila": "purple",
        "violett": "purple", "rosa": "pink", "pink": "pink", "schwarz": "black",
        "schwarze": "black", "schwarzen": "black", "weiss": "white", "weiß": "white",
        "weisse": "white", "weiße": "white", "grau": "grey", "graue": "grey",
        "grauen": "grey", "braun": "brown", "braune": "brown", "braunen": "brown",
        "golden": "gold", "turkis": "turquoise",
    }, shades={}),
    "dunkelblau": "dark blue", "hellblau": "light blue", "dunkelrot": "dark red",
    "hellrot": "light red", "dunkelgrun": "dark green", "hellgrun": "light green",
    "dunkelgrau": "dark grey", "hellgrau": "light grey", "dunkler": "darker",
    "heller": "lighter", "dunkleres blau": "darker blue",
    # "keine Hintergrundkarte, nur meine Daten", "länger als 900 km", "nach ihren Zahlen"
    "keine": "no", "kein": "no", "meine": "my", "mein": "my", "daten": "data",
    "langer als": "longer than", "kurzer als": "shorter than", "zahlen": "numbers",
    "besser": "better", "lieber": "better", "bewertet": "rated", "typ": "type",
    # "Klassifizieren Sie die Distrikte", "kipp die Karte", "zoom darauf", "zoom dorthin"
    "klassifizieren": "classify", "klassifiziere": "classify", "klassifizier": "classify",
    "distrikt": "district", "distrikte": "districts", "distrikten": "districts",
    "kipp": "tilt", "kippen": "tilt", "darauf": "on it", "drauf": "on it",
    "davon": "of those", "doch lieber": "better",
    # the polite imperative is the infinitive: "Zeigen Sie mir", "Entfernen Sie die Ebene"
    "zeigen": "show", "fliegen": "fly", "gehen": "go", "neigen": "tilt", "markieren": "highlight",
    "entfernen": "remove", "einblenden": "show", "filtern": "filter", "wechseln": "switch",
    "zentrieren": "center", "verkleinern": "zoom out", "vergroßern": "zoom in",
    "vergrossern": "zoom in",
    "bewertung": "rating", "bewertungen": "ratings",
    "kreise": "circles", "kreis": "circle", "kreisen": "circles",
    "wie lang": "how long",
    "unsere": "our", "unser": "our", "unseren": "our", "unserer": "our", "unserem": "our",
    "metern": "meters", "kilometern": "km",
    "geh": "go", "gehe": "go", "ein stuck": "a bit", "ein stuckchen": "a bit", "weiter": "further",
    "leer": "blank", "leeren": "blank", "leere": "blank", "leerer": "blank",
    "ups": "oops", "hoppla": "oops",
}  # fmt: skip
