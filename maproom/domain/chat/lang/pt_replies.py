"""Portuguese replies: the catalogue of `en.REPLIES`, key for key, said in Portuguese."""

from __future__ import annotations

from typing import Any

from maproom.domain.chat.lang.en import shown as _shown
from maproom.domain.chat.lang.writing import Writing
from maproom.domain.chat.lang.writing import plural as _plural
from maproom.domain.chat.lang.writing import word as _word

THOUSANDS = "."
DECIMAL = ","
# What confirms a question (folded: lower case, no accents). Not a bare "claro" nor "pode":
# the first word of an answer is enough, and "claro que nao" and "pode esquecer" are a no.
YES: frozenset[str] = frozenset(
    ["sim", "s", "ok", "okay", "certo", "confirmo", "confirmado", "afirmativo", "perfeito",
     "exato", "exatamente", "avanca", "avance", "forca", "bora", "claro que sim", "pois claro",
     "com certeza", "sim, claro", "sim claro", "pode ser", "pode remover", "pode apagar",
     "esta bem", "esta bom", "ta bem", "ta bom", "va la", "faz isso", "faca isso",
     "sim, por favor", "sim por favor", "sim, remover", "sim remover", "sim, remove",
     "sim, remova", "sim, apaga", "sim, apague", "remove", "remova", "remove-as", "remova-as",
     "apaga-as", "apague-as", "remove as camadas", "apaga as camadas"]
)  # fmt: skip
KINDS = {"points": "pontos", "lines": "linhas", "polygons": "polígonos", "mixed": "mista",
         "features": "elementos", "image tiles": "mosaicos de imagem",
         "raster": "raster"}  # fmt: skip
TYPES = {"string": "texto", "number": "número", "boolean": "verdadeiro/falso"}
# A superlative of the English question, in the singular and the plural ("o maior").
SUPERLATIVES = {
    "biggest": ("maior", "maiores"), "largest": ("maior", "maiores"),
    "greatest": ("maior", "maiores"), "most": ("maior", "maiores"), "max": ("maior", "maiores"),
    "maximum": ("maior", "maiores"), "smallest": ("menor", "menores"),
    "least": ("menor", "menores"), "fewest": ("menor", "menores"), "min": ("menor", "menores"),
    "minimum": ("menor", "menores"), "most populous": ("mais populoso", "mais populosos"),
    "least populous": ("menos populoso", "menos populosos"),
    "most visited": ("mais visitado", "mais visitados"),
    "least visited": ("menos visitado", "menos visitados"),
    "most popular": ("mais popular", "mais populares"),
    "least popular": ("menos popular", "menos populares"),
    "highest rated": ("mais bem avaliado", "mais bem avaliados"),
    "best rated": ("mais bem avaliado", "mais bem avaliados"),
    "most expensive": ("mais caro", "mais caros"), "cheapest": ("mais barato", "mais baratos"),
    "highest": ("mais alto", "mais altos"), "lowest": ("mais baixo", "mais baixos"),
    "longest": ("mais longo", "mais longos"), "shortest": ("mais curto", "mais curtos"),
    "top": ("primeiro", "primeiros"), "bottom": ("último", "últimos"),
    "best": ("melhor", "melhores"), "worst": ("pior", "piores"),
}  # fmt: skip
DIRECTIONS = {"north": "norte", "south": "sul", "east": "leste", "west": "oeste",
              "northeast": "nordeste", "northwest": "noroeste", "southeast": "sudeste",
              "southwest": "sudoeste"}  # fmt: skip
PLACE_KINDS = {"country": "um país", "region": "uma região", "city": "uma cidade",
               "area": "uma zona"}  # fmt: skip
STYLES = {"dark": "escuro", "light": "claro", "satellite": "de satélite", "streets": "de ruas",
          "blank": "em branco", "offline": "offline"}  # fmt: skip
PARTS = {"roads": "as estradas", "labels": "os rótulos", "water": "a água",
         "parks": "os parques", "buildings": "os edifícios", "boundaries": "as fronteiras",
         "land": "a terra"}  # fmt: skip
METHODS = {"quantile": "por quantis", "equal": "de intervalos iguais"}
STATS = {"count": "o número", "sum": "a soma", "mean": "a média", "max": "o máximo",
         "min": "o mínimo"}  # fmt: skip
COLOURS = {
    "red": "vermelho", "blue": "azul", "green": "verde", "yellow": "amarelo",
    "orange": "laranja", "purple": "roxo", "violet": "violeta", "pink": "cor-de-rosa",
    "black": "preto", "white": "branco", "grey": "cinzento", "gray": "cinzento",
    "brown": "castanho", "gold": "dourado", "turquoise": "turquesa", "navy": "azul-marinho",
    "sky blue": "azul-celeste", "teal": "azul-petróleo", "maroon": "grená", "cyan": "ciano",
    "magenta": "magenta", "beige": "bege", "lime": "verde-lima", "olive": "verde-azeitona",
    "lavender": "lavanda", "coral": "coral", "salmon": "salmão", "burgundy": "cor de vinho",
    "indigo": "índigo", "mint": "verde-menta", "ochre": "ocre", "rose": "rosa",
    "sea green": "verde-mar", "forest green": "verde-floresta",
}  # fmt: skip
SHADES = {"dark": "escuro", "light": "claro", "pale": "pálido", "deep": "intenso",
          "bright": "vivo"}  # fmt: skip
SHIFTS = {"darker": "mais escuro", "lighter": "mais claro", "paler": "mais pálido",
          "deeper": "mais intenso", "brighter": "mais vivo"}  # fmt: skip
# Size and opacity changes: what was done, and what cannot be done.
SIZING = {
    "grow": ("Aumentei{much} o tamanho de {layers}.", "aumentar o tamanho de {layers}"),
    "shrink": ("Reduzi{much} o tamanho de {layers}.", "reduzir o tamanho de {layers}"),
    "thicken": ("Aumentei{much} a espessura de {layers}.", "aumentar a espessura de {layers}"),
    "thin": ("Reduzi{much} a espessura de {layers}.", "reduzir a espessura de {layers}"),
    "fade": ("Aumentei{much} a transparência de {layers}.",
             "mudar a transparência de {layers}"),
    "unfade": ("Reduzi{much} a transparência de {layers}.",
               "mudar a transparência de {layers}"),
    "half": ("Pus a opacidade de {layers} a 50%.",
             "mudar a transparência de {layers}"),
    "clear": ("Pus a opacidade de {layers} a 30%.",
              "mudar a transparência de {layers}"),
    "solid": ("Tirei a transparência de {layers}.", "mudar a transparência de {layers}"),
    "times": ("Multipliquei por {n} o tamanho de {layers}.", "mudar o tamanho de {layers}"),
    "value": ("Pus o tamanho de {layers} em {n}.", "mudar o tamanho de {layers}"),
    "other": ("Alterei {layers}: {n}.", "alterar {layers} assim: {n}"),
}  # fmt: skip
MUCH = {"much": " muito", "little": " um pouco", "": ""}


def shown(value: Any) -> Any:
    """A value as a Portuguese reply shows it: "37.400.000", "4,5"."""
    return _shown(value, THOUSANDS, DECIMAL)


def join(items: list[str], word: str = "e") -> str:
    """ "a, b e c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


_number, _distance, _parts, _with, _sized, _sizing = Writing(
    shown, join, PARTS, SIZING, MUCH
).helpers()


def _colour(said: Any) -> str:
    """A colour said in English ("dark blue", "darker", "#ff8800"), after "pintar"."""
    text = str(said).strip().lower()
    shade, _, base = text.partition(" ")
    if text in SHIFTS or text in SHADES:
        return f"de um tom {SHIFTS.get(text) or SHADES[text]}"
    if text in COLOURS:
        return f"de {COLOURS[text]}"
    if shade in SHIFTS and base in COLOURS:
        return f"de um {COLOURS[base]} {SHIFTS[shade]}"
    if shade in SHADES and base in COLOURS:
        return f"de {COLOURS[base]} {SHADES[shade]}"
    return f"da cor {said}" if text.startswith("#") else f"de {said}"


def _cannot_size(v: dict[str, Any]) -> str:
    kind, _, number = _sizing(v["how"])
    return "Não consigo " + SIZING[kind][1].format(layers=v["layers"], n=number) + "."


def _layers(v: dict[str, Any]) -> str:
    parts = [f"{x['name']} ({KINDS.get(x['kind'], x['kind'])}{', oculta' if x['hidden'] else ''})"
             for x in v["layers"]]  # fmt: skip
    count = v["count"]
    if count == 1:
        return f"Este mapa tem 1 camada: {', '.join(parts)}."
    return f"Este mapa tem {shown(count)} camadas, de cima para baixo: {', '.join(parts)}."


def _fields(v: dict[str, Any]) -> str:
    parts = []
    for f in v["fields"]:
        kind = TYPES.get(f["type"], f["type"] or "?")
        extra = f", de {shown(f['min'])} a {shown(f['max'])}" if f.get("min") is not None else ""
        parts.append(f"{f['name']} ({kind}{extra})")
    count = _plural(v["count"], "campo", "campos")
    return f"A camada {v['layer']} tem {shown(v['count'])} {count}: {join(parts)}."


def _top(v: dict[str, Any]) -> str:
    items = [f"{x['name']} ({shown(x['value'])})" for x in v["features"]]
    one, many = SUPERLATIVES.get(v["sup"], (v["sup"], v["sup"]))
    if len(items) == 1:
        return f"Em {v['layer']}, o {one} por {v['field']} é {items[0]}."
    return f"Em {v['layer']}, os {len(items)} {many} por {v['field']} são: {join(items)}."


def _categories(v: dict[str, Any]) -> str:
    items = [f"{x['value']} ({shown(x['count'])})" for x in v["values"]]
    if not items:
        return f"{v['field']} não tem valores em {v['layer']}."
    return f"Os valores de {v['field']} em {v['layer']}: {join(items)}."


def _undone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    if steps == 1:
        return "Anulei a última alteração."
    return f"Anulei as últimas {steps} alterações."


def _redone(v: dict[str, Any]) -> str:
    steps = v["steps"]
    return "Refiz a alteração." if steps == 1 else f"Refiz {steps} alterações."


def _only(v: dict[str, Any]) -> str:
    hidden = v["hidden"]
    others = "outra" if hidden == 1 else f"outras {shown(hidden)}"
    return f"Agora só se vê {v['layers']}" + (f" (ocultei {others})." if hidden else ".")


def _count(v: dict[str, Any]) -> str:
    noun = _plural(v["count"], "elemento", "elementos")
    return f"A camada {v['layer']} tem {shown(v['count'])} {noun}."


def _count_where(v: dict[str, Any]) -> str:
    noun = _plural(v["total"], "elemento", "elementos")
    verb = _plural(v["count"], "cumpre", "cumprem")
    return (f"{shown(v['count'])} de {shown(v['total'])} {noun} de {v['layer']} {verb} "
            "a condição.")  # fmt: skip


def _dissolved(v: dict[str, Any]) -> str:
    by = f" por {v['field']}" if v["field"] else ""
    return f"Dissolvi {v['layer']}{by} numa nova camada."


HELP = (
    "Posso mover o mapa («voa para Lisboa», «aproxima um pouco», «roda 45 graus», «inclina o "
    "mapa»), mudar o mapa de base («modo escuro», «põe a água azul escura»), destacar um "
    "país, dar estilo às camadas («colore as cidades por população em 3 classes», «muda o "
    "tamanho das cidades conforme a população», «rotula os sítios pelo nome»), filtrá-las "
    "(«mostra só as cidades com mais de 10 milhões de habitantes»), responder a perguntas "
    "sobre os dados («quantas cidades há?», «quais são as 3 maiores cidades?»), criar novas "
    "camadas («cria uma zona tampão de 50 km à volta das cidades») e anular ou refazer "
    "alterações."
)
REPLIES: dict[str, Any] = {
    "help": HELP,
    "hello": "Olá!",
    "welcome": "De nada!",
    "which_ones": (
        "Quais quer dizer? Diga a camada e uma condição, por exemplo «cidades com mais de 10 "
        "milhões de habitantes»."
    ),
    "which_look": (
        "O que devo mudar para isso? Por exemplo a cor ou o tamanho de uma camada "
        "(«pinta os sítios de laranja»), o mapa de base («modo escuro») ou os rótulos."
    ),
    "refused_injection": "Só sigo comandos sobre o mapa, não instruções escritas dentro de uma "
    "mensagem, por isso não alterei nada.",
    "refused_offtopic": "Só posso ajudar com este mapa, por isso não alterei nada.",
    "refused_account": "Não posso apagar projetos, ficheiros, contas nem chaves de API a partir "
    "do chat, por isso não alterei nada.",
    "unknown": "Não entendi, por isso não alterei nada.",
    "couldnt": "Não consegui fazer isso: {reason}",
    "nothing_to_undo": "Não há nada para anular.",
    "nothing_to_redo": "Não há nada para refazer.",
    "undone": _undone,
    "redone": _redone,
    "which_layer": "A que camada se refere com «{said}»?",
    "which_layer_plain": "A que camada se refere?",
    "no_layers": "Este mapa ainda não tem camadas.",
    "no_place": "Não encontrei nenhum lugar chamado «{name}».",
    "which_place": "A que {name} se refere?",
    "which_country": "Que país destaco?",
    "mask_not_country": _with(
        "Só consigo destacar países inteiros, e {place} é {kind}.", kind=_word(PLACE_KINDS)
    ),
    "masked": "Destaquei {place}.",
    "flew": "Voei para {place}.",
    "unmasked": "Tirei o destaque.",
    "home": "Voltei à vista do mundo inteiro.",
    "zoom_level": _with("Pus o zoom no nível {level}.", level=_number),
    "zoomed_in_one": "Aproximei o mapa.",
    "zoomed_in_little": "Aproximei um pouco o mapa.",
    "zoomed_in_levels": _with("Aproximei o mapa {levels} níveis.", levels=_number),
    "zoomed_in_all": "Aproximei o mapa ao máximo.",
    "zoomed_out_one": "Afastei o mapa.",
    "zoomed_out_little": "Afastei um pouco o mapa.",
    "zoomed_out_levels": _with("Afastei o mapa {levels} níveis.", levels=_number),
    "zoomed_out_all": "Afastei o mapa ao máximo.",
    "panned": _with("Desloquei o mapa para {direction}.", direction=_word(DIRECTIONS)),
    "bearing": _with("Rodei o mapa para {degrees}°.", degrees=_number),
    "bearing_reset": "O mapa volta a estar virado para norte.",
    "pitch": _with("Inclinei o mapa para {degrees}°.", degrees=_number),
    "pitch_reset": "O mapa volta a estar plano.",
    "layers": _layers,
    "showed": "Mostrei {layers}.",
    "hid": "Ocultei {layers}.",
    "toggled": "Alternei a visibilidade de {layers}.",
    "only": _only,
    "renamed": "Mudei o nome de {layer} para {name}.",
    "removed": "Removi {layers}.",
    "nothing_to_remove": "Não há camadas para remover.",
    "no_ai_layers": "Não há camadas criadas pelo assistente para limpar.",
    "move_itself": "Não consigo mover {layer} em relação a si mesma.",
    "moved_above": "Pus {layer} acima de {other}.",
    "moved_below": "Pus {layer} abaixo de {other}.",
    "moved_top": "Pus {layer} no topo.",
    "moved_bottom": "Pus {layer} no fundo.",
    "moved_up": "Subi {layer} uma posição.",
    "moved_down": "Desci {layer} uma posição.",
    "no_extent": "Não há nada em {layers} onde fazer zoom.",
    "zoomed_to": "Fiz zoom em {layers}.",
    "image_layer": "{layer} é uma camada de imagem: as cores são as da própria imagem.",
    "coloured": _with("Pintei {layers} {colour}.", colour=_colour),
    "cannot_size": _cannot_size,
    "sized": _sized,
    "opacity": "Pus a opacidade de {layers} a {percent}%.",
    "no_field": "{layer} não tem nenhum campo como «{field}»; os campos são {fields}.",
    "no_fields": "{layer} não tem campos.",
    "heatmap_points": "Um mapa de calor precisa de pontos, e {layer} não tem nenhum.",
    "heatmap": "Mostro {layer} como mapa de calor.",
    "heatmap_weighted": "Mostro {layer} como mapa de calor ponderado por {field}.",
    "classified": _with(
        "Colori {layer} por {field} ({classes} classes {method}).", method=_word(METHODS)
    ),
    "categorized": "Colori {layer} por {field} (uma cor por valor).",
    "cannot_size_by": "Só os pontos e as linhas podem mudar de tamanho conforme um campo, e "
    "{layer} não tem nem uns nem outras.",
    "field_constant": "{field} tem o mesmo valor em todos os elementos de {layer}, por isso os "
    "tamanhos não iam variar.",
    "sized_by": "Ajustei o tamanho de {layer} conforme {field}.",
    "labels_off": "Ocultei os rótulos de {layers}.",
    "labelled": "Rotulei {layers} com {field}.",
    "basemap": _with("Mudei para o mapa de base {style}.", style=_word(STYLES)),
    "category_shown": _with("Mostrei {parts} no mapa de base.", parts=_parts),
    "category_hidden": _with("Ocultei {parts} no mapa de base.", parts=_parts),
    "category_coloured": _with(
        "Pintei {parts} do mapa de base {colour}.", parts=_parts, colour=_colour
    ),
    "no_numbers": "{layer} não tem nenhum campo numérico para comparar.",
    "which_colour": "De que cor quer {layers}?",
    "which_number": "A que campo de {layer} se refere? Os campos numéricos são {fields}.",
    "no_condition": "Não consegui ler «{said}» como uma condição sobre {layer}.",
    "data_error": "Não consegui ler esses dados: {reason}",
    "count": _count,
    "count_where": _count_where,
    "no_outline": "{layer} não tem contorno para pintar (só pontos e polígonos).",
    "outlined": _with("Pintei o contorno de {layers} {colour}.", colour=_colour),
    "style_reset": "{layers} voltou ao estilo simples.",
    "names": lambda v: (
        "{layer}: ".format(layer=v["layer"])
        + ", ".join(v["names"])
        + (" e mais {more}.".format(more=shown(v["more"])) if v["more"] else ".")
    ),
    "feature_value": lambda v: "O valor de {field} de {feature} é {value}.".format(
        field=v["field"], feature=v["feature"], value=shown(v["value"])
    ),
    "fields": _fields,
    "stat_min": "O valor mais baixo de {field} em {layer} é {value}.",
    "stat_max": "O valor mais alto de {field} em {layer} é {value}.",
    "stat_min_named": "O valor mais baixo de {field} em {layer} é {value} ({name}).",
    "stat_max_named": "O valor mais alto de {field} em {layer} é {value} ({name}).",
    "stat_mean": "A média de {field} em {layer} é {value}.",
    "stat_sum": "O total de {field} em {layer} é {value}.",
    "none_found": "Nenhum elemento de {layer} cumpre a condição.",
    "top": _top,
    "categories": _categories,
    "filtered": "Filtrei {layer}: só se veem os elementos que cumprem a condição.",
    "filter_how": (
        "Quais elementos de {layers} mantenho por {field}? "
        "Diga uma condição, por exemplo «{field} acima de 1000»."
    ),
    "filtered_hide": "Ocultei os elementos de {layer} que cumprem a condição.",
    "not_filtered": "{layers} já mostra todos os elementos.",
    "unfiltered": "Voltei a mostrar todos os elementos de {layers}.",
    "buffered": _with(
        "Criei uma zona tampão de {distance} à volta de {layer} numa nova camada.",
        distance=_distance,
    ),
    "aggregate_kinds": "Para agregar, preciso de pontos ({points}) e polígonos ({polygons}).",
    "aggregated": _with(
        "Criei uma nova camada de {polygons} com {stat} de {points} em cada polígono.",
        stat=_word(STATS),
    ),
    "dissolved": _dissolved,
    "clipped": "Recortei {layer} com {to} numa nova camada.",
    "kept": "Guardei os elementos de {layer} que cumprem a condição numa nova camada.",
    "confirm_remove": "Remover {count} camadas ({names})? (Desfazer recupera-as.)",
    "confirm_yes": "Sim, remover",
    "confirm_no": "Não, manter",
    "removed_confirmed": "Feito: removi as camadas.",
    "kept_layers": "OK, não removi nada.",
    "not_removed": "Não foi removido nada: {reason}",
}
